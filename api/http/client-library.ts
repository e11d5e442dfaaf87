/**
 * Serves the client-side library (api/clients/browser/dist) under /sdk/, with no credentials
 * (docs/decisions.md: public documents):
 *   /sdk/sha224.min.js, /sdk/sha224.mjs                  stable URLs, cached for an hour, revalidated by ETag
 *   /sdk/sha224.<hash>.min.js, /sdk/sha224.<hash>.mjs    content-addressed, cached for a year, immutable
 *   /sdk/manifest.json                                   the content-addressed URLs and their SRI integrity
 * Each file is sent brotli- or gzip-compressed as Accept-Encoding allows, from the copies the
 * library's build precompressed (gzip -9, brotli 11), with Vary: Accept-Encoding and one ETag per
 * representation. Everything is read once per process, on the first /sdk request (a missing
 * build still stops the start); later requests do no I/O and no compression.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { publicResource } from './public-resource.js';

/** Served name → built file. The ESM is served minified: browsers load it as is, unlike a bundler's input. */
const ASSETS = { 'sha224.min.js': 'sha224.min.js', 'sha224.mjs': 'sha224.min.mjs' } as const;

const STABLE_CACHE = 'public, max-age=3600';
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

type Coding = 'br' | 'gzip' | 'identity';

interface Representation {
  body: Buffer;
  etag: string;
}

interface Served {
  type: string;
  cacheControl: string;
  /** identity always; br and gzip for the scripts. */
  representations: Partial<Record<Coding, Representation>> & { identity: Representation };
}

/** The library's dist/, found from this file both in the sources (api/http/) and in the bundle (dist/). */
function distDir(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'api', 'clients', 'browser', 'dist');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error('client library not found: api/clients/browser/dist (npm run build:sdk)');
  }
}

/** The precompressed sibling if it decodes to exactly body, else compressed now: a stale copy is never served. */
function precompressed(file: string, body: Buffer, coding: 'br' | 'gzip'): Buffer {
  const sibling = `${file}.${coding === 'br' ? 'br' : 'gz'}`;
  try {
    const stored = readFileSync(sibling);
    if ((coding === 'br' ? brotliDecompressSync(stored) : gunzipSync(stored)).equals(body)) return stored;
  } catch {
    // Missing or corrupt: fall through and compress.
  }
  return coding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })
    : gzipSync(body, { level: 9 });
}

function representations(body: Buffer, tag: string, file: string): Record<Coding, Representation> {
  return {
    identity: { body, etag: `"${tag}"` },
    gzip: { body: precompressed(file, body, 'gzip'), etag: `"${tag}-gz"` },
    br: { body: precompressed(file, body, 'br'), etag: `"${tag}-br"` },
  };
}

/** Every /sdk/ path (relative to the mount point) with what it serves. */
function loadRoutes(dist: string): Map<string, Served> {
  const { name, version } = JSON.parse(readFileSync(path.join(dist, '..', 'package.json'), 'utf8')) as { name: string; version: string };
  const routes = new Map<string, Served>();
  const files: Record<string, { url: string; integrity: string; bytes: number; gzip: number; br: number }> = {};
  for (const [servedName, builtName] of Object.entries(ASSETS)) {
    const file = path.join(dist, builtName);
    const body = readFileSync(file);
    const tag = createHash('sha224').update(body).digest('hex').slice(0, 16);
    const reps = representations(body, tag, file);
    const type = 'text/javascript; charset=utf-8';
    const dot = servedName.indexOf('.');
    const hashedPath = `/${servedName.slice(0, dot)}.${tag}${servedName.slice(dot)}`;
    routes.set(`/${servedName}`, { type, cacheControl: STABLE_CACHE, representations: reps });
    routes.set(hashedPath, { type, cacheControl: IMMUTABLE_CACHE, representations: reps });
    files[servedName] = {
      url: `/sdk${hashedPath}`,
      integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
      bytes: body.length,
      gzip: reps.gzip.body.length,
      br: reps.br.body.length,
    };
  }
  const manifest = Buffer.from(JSON.stringify({ name, version, files }));
  const manifestTag = createHash('sha224').update(manifest).digest('hex').slice(0, 16);
  // Small and fetched to discover the immutable URLs: always revalidated, not worth compressing.
  routes.set('/manifest.json', {
    type: 'application/json; charset=utf-8',
    cacheControl: 'no-cache',
    representations: { identity: { body: manifest, etag: `"${manifestTag}"` } },
  });
  return routes;
}

/**
 * The content coding to send for an Accept-Encoding value (RFC 9110 §12.5.3): the acceptable one
 * with the highest q, brotli before gzip before identity on a tie (brotli is the smallest). No
 * header means identity; a coding with q=0, or not listed and not covered by `*`, is not acceptable.
 * Identity is the fallback even when excluded: the RFC allows sending it, and a page that cannot
 * decode anything offered is better served the plain file than an error.
 */
export function chooseCoding(acceptEncoding: string | undefined, available: readonly Coding[] = ['br', 'gzip']): Coding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [token = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!token) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(token === 'x-gzip' ? 'gzip' : token, Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0);
  }
  const star = q.get('*');
  // Identity not listed is acceptable (RFC 9110 §12.5.3) but preferred to nothing that is listed.
  const weight = (coding: Coding): number => q.get(coding) ?? star ?? (coding === 'identity' ? Number.MIN_VALUE : 0);
  let best: Coding = 'identity';
  for (const coding of ['gzip', 'br'] as const) {
    if (available.includes(coding) && weight(coding) > 0 && weight(coding) >= weight(best)) best = coding;
  }
  return best;
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or any listed tag equal to etag under weak comparison. */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

let routes: Map<string, Served> | undefined;

/**
 * The handler of the /sdk routes (api/service-routes.ts), its files named below `base` (`/sdk`).
 * Paths it does not know fall through (to the 404 handler). The library's files are looked for at
 * start, so a node without its build does not start; they are read, checked against their
 * precompressed copies and hashed on the first /sdk request, which a cold start's first request
 * never is (~5 ms of CPU; docs/decisions.md "Speed").
 */
export function clientLibrary(base = '/sdk'): RequestHandler {
  const dist = distDir();
  for (const built of Object.values(ASSETS)) {
    if (!existsSync(path.join(dist, built))) throw new Error(`client library not found: ${path.join(dist, built)} (npm run build:sdk)`);
  }
  return publicResource(
    (req) => (req.path.startsWith(`${base}/`) ? (routes ??= loadRoutes(dist)).get(req.path.slice(base.length)) : undefined),
    function sendClientLibrary(req, res, served) {
      const { representations } = served;
      const available = (['br', 'gzip'] as const).filter((c) => representations[c] !== undefined);
      const coding = chooseCoding(req.headers['accept-encoding'], available);
      const { body, etag } = representations[coding] ?? representations.identity;
      if (available.length > 0) res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('Cache-Control', served.cacheControl);
      res.setHeader('ETag', etag);
      if (notModified(req.headers['if-none-match'], etag)) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', served.type);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
      res.setHeader('Content-Length', body.length);
      res.end(body);
    },
  );
}
