/**
 * Static files of the docs site, served by the API node itself (no CDN, docs/decisions.md
 * "Documentation"): Swagger UI's files straight from node_modules/swagger-ui-dist, and the site's
 * own stylesheet and start-up script. Everything is read once; gzip and brotli copies are made in
 * the background on first request (the Swagger UI bundle is 1.7 MB, ~0.5 MB gzipped) and then kept.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Response } from 'express';
import { chooseCoding } from '../http/client-library.js';
import { DOCS_STYLESHEET } from './static/stylesheet.js';
import { REFERENCE_SCRIPT } from './static/reference-script.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
  compressed?: Promise<{ gzip: Buffer; br: Buffer }>;
}

/** Served name → file of swagger-ui-dist. Only what the page loads; never its index.html (inline-free but petstore-bound). */
const SWAGGER_FILES: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'oauth2-redirect.js': { file: 'oauth2-redirect.js', type: 'text/javascript; charset=utf-8' },
  'oauth2-redirect.html': { file: 'oauth2-redirect.html', type: 'text/html; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
};

export function swaggerUiDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

export function swaggerUiVersion(): string {
  return (JSON.parse(readFileSync(path.join(swaggerUiDir(), 'package.json'), 'utf8')) as { version: string }).version;
}

function asset(type: string, body: Buffer): Asset {
  return { type, body, etag: `"${createHash('sha224').update(body).digest('hex').slice(0, 32)}"` };
}

/** Every asset by served name. */
export function loadAssets(): Map<string, Asset> {
  const dir = swaggerUiDir();
  const assets = new Map<string, Asset>();
  for (const [name, { file, type }] of Object.entries(SWAGGER_FILES)) assets.set(name, asset(type, readFileSync(path.join(dir, file))));
  assets.set('docs.css', asset('text/css; charset=utf-8', Buffer.from(DOCS_STYLESHEET)));
  assets.set('reference.js', asset('text/javascript; charset=utf-8', Buffer.from(REFERENCE_SCRIPT)));
  return assets;
}

function compressed(a: Asset): Promise<{ gzip: Buffer; br: Buffer }> {
  a.compressed ??= Promise.all([
    gzipAsync(a.body, { level: 9 }),
    // Quality 9, not 11: within ~5% of the smallest and seconds faster on a 1.7 MB bundle.
    brotliAsync(a.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: a.body.length } }),
  ]).then(([gz, br]) => ({ gzip: gz, br }));
  return a.compressed;
}

/** Writes `a` in the best coding the client accepts (identity for images, which are already compressed). */
export async function sendAsset(
  a: Asset,
  acceptEncoding: string | undefined,
  ifNoneMatch: string | undefined,
  res: Response,
): Promise<void> {
  const compressible = !a.type.startsWith('image/');
  const coding = compressible ? chooseCoding(acceptEncoding) : 'identity';
  const etag = coding === 'identity' ? a.etag : `${a.etag.slice(0, -1)}-${coding}"`;
  if (compressible) res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.setHeader('ETag', etag);
  if (ifNoneMatch?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) === true) {
    res.status(304).end();
    return;
  }
  const body = coding === 'identity' ? a.body : (await compressed(a))[coding];
  res.setHeader('Content-Type', a.type);
  if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
