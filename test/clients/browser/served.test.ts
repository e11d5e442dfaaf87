/**
 * The client library as the service serves it under /sdk/: the IIFE and the ESM at stable and at
 * content-addressed URLs, negotiated gzip/brotli from the precompressed copies, Vary, one ETag per
 * representation, caching, CORS, the manifest; and the served code gives the same digests as the
 * service's own /v2/hash and /v2/hmac. Raw bytes are read with node:http, which (unlike fetch)
 * neither asks for nor decodes a content coding by itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import vm from 'node:vm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, DIST_FILES } from '../../../api/clients/browser/build.js';
import type * as Sdk from '../../../api/clients/browser/src/sha224.js';
import { chooseCoding } from '../../../api/http/client-library.js';
import { postJson, startTestServer, type TestServer } from '../../helpers/api-server.js';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function raw(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const dist = (file: string): Buffer => readFileSync(path.join(DIST_DIR, file));
/** Served path → built file. */
const ASSETS = { '/sdk/sha224.min.js': DIST_FILES.iife, '/sdk/sha224.mjs': DIST_FILES.esmMin } as const;

interface Manifest {
  name: string;
  version: string;
  files: Record<'sha224.min.js' | 'sha224.mjs', { url: string; integrity: string; bytes: number; gzip: number; br: number }>;
}

describe('chooseCoding (Accept-Encoding, RFC 9110 §12.5.3)', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['BR;Q=1, GZIP', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['*;q=0, identity', 'identity'],
    ['br;q=nonsense, gzip', 'gzip'],
    ['deflate, compress', 'identity'],
    [' , ;q=1, gzip ; q=0.5 ', 'gzip'],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} → ${expected}`, () => {
      expect(chooseCoding(header)).toBe(expected);
    });
  }

  it('only offers what exists', () => {
    expect(chooseCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(chooseCoding('br, gzip', [])).toBe('identity');
  });
});

describe('the served client library', () => {
  let s: TestServer;
  let manifest: Manifest;
  beforeAll(async () => {
    s = await startTestServer();
    manifest = JSON.parse((await raw(`${s.url}/sdk/manifest.json`)).body.toString()) as Manifest;
  });
  afterAll(() => s.close());

  for (const [urlPath, file] of Object.entries(ASSETS)) {
    describe(urlPath, () => {
      it('uncompressed when the client asks for no coding: the built file, as JavaScript, cacheable, CORS-readable', async () => {
        const res = await raw(`${s.url}${urlPath}`);
        expect(res.status).toBe(200);
        expect(res.body.equals(dist(file))).toBe(true);
        expect(res.headers).toMatchObject({
          'content-type': 'text/javascript; charset=utf-8',
          'content-length': String(dist(file).length),
          'cache-control': 'public, max-age=3600',
          vary: 'Accept-Encoding',
          'access-control-allow-origin': '*',
          'cross-origin-resource-policy': 'cross-origin',
          'x-content-type-options': 'nosniff',
        });
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.etag).toMatch(/^"[0-9a-f]{16}"$/);
      });

      it('brotli or gzip as Accept-Encoding allows: the precompressed bytes, decoding to the file', async () => {
        const br = await raw(`${s.url}${urlPath}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.body.equals(dist(`${file}.br`))).toBe(true);
        expect(brotliDecompressSync(br.body).equals(dist(file))).toBe(true);
        expect(br.headers['content-length']).toBe(String(br.body.length));
        expect(br.headers.vary).toBe('Accept-Encoding');

        const gz = await raw(`${s.url}${urlPath}`, { headers: { 'accept-encoding': 'br;q=0, gzip' } });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.body).equals(dist(file))).toBe(true);

        const etags = new Set([br.headers.etag, gz.headers.etag, (await raw(`${s.url}${urlPath}`)).headers.etag]);
        expect(etags.size).toBe(3); // one strong ETag per representation (RFC 9110 §8.8.3)
      });

      it("revalidates: If-None-Match with the representation's ETag (strong, weak or *) gives 304 and no body", async () => {
        const first = await raw(`${s.url}${urlPath}`, { headers: { 'accept-encoding': 'br' } });
        const etag = first.headers.etag!;
        for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const again = await raw(`${s.url}${urlPath}`, { headers: { 'accept-encoding': 'br', 'if-none-match': inm } });
          expect(again.status, inm).toBe(304);
          expect(again.body.length).toBe(0);
          expect(again.headers).toMatchObject({ etag, vary: 'Accept-Encoding', 'cache-control': 'public, max-age=3600' });
        }
        // The brotli ETag does not validate the gzip representation.
        const other = await raw(`${s.url}${urlPath}`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
        expect(other.status).toBe(200);
        expect(other.headers['content-encoding']).toBe('gzip');
      });

      it('HEAD: the same headers, no body; other methods 405 with Allow; a preflight is answered', async () => {
        const head = await raw(`${s.url}${urlPath}`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        expect(head.headers['content-length']).toBe(String(dist(`${file}.gz`).length));
        const post = await raw(`${s.url}${urlPath}`, { method: 'POST' });
        expect(post.status).toBe(405);
        expect(post.headers.allow).toBe('GET, HEAD');
        expect(JSON.parse(post.body.toString())).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
        const preflight = await raw(`${s.url}${urlPath}`, {
          method: 'OPTIONS',
          headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD' });
      });
    });
  }

  it('the manifest lists content-addressed URLs, SRI integrity and sizes, revalidated on every use', async () => {
    const res = await raw(`${s.url}/sdk/manifest.json`);
    expect(res.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect((await raw(`${s.url}/sdk/manifest.json`, { headers: { 'if-none-match': res.headers.etag! } })).status).toBe(304);
    const pkg = JSON.parse(readFileSync(path.join(DIST_DIR, '..', 'package.json'), 'utf8')) as { name: string; version: string };
    expect(manifest).toMatchObject({ name: pkg.name, version: pkg.version });
    for (const [name, file, pattern] of [
      ['sha224.min.js', DIST_FILES.iife, /^\/sdk\/sha224\.[0-9a-f]{16}\.min\.js$/],
      ['sha224.mjs', DIST_FILES.esmMin, /^\/sdk\/sha224\.[0-9a-f]{16}\.mjs$/],
    ] as const) {
      const entry = manifest.files[name];
      expect(entry.url).toMatch(pattern);
      expect(entry.integrity).toBe(`sha384-${createHash('sha384').update(dist(file)).digest('base64')}`);
      expect(entry).toMatchObject({ bytes: dist(file).length, gzip: dist(`${file}.gz`).length, br: dist(`${file}.br`).length });
    }
  });

  it('content-addressed URLs serve the same file for a year, immutable; any other hash is 404', async () => {
    for (const [name, file] of [
      ['sha224.min.js', DIST_FILES.iife],
      ['sha224.mjs', DIST_FILES.esmMin],
    ] as const) {
      const { url } = manifest.files[name];
      const res = await raw(`${s.url}${url}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'cache-control': 'public, max-age=31536000, immutable',
        'content-encoding': 'br',
        vary: 'Accept-Encoding',
      });
      expect(brotliDecompressSync(res.body).equals(dist(file))).toBe(true);
      const stale = url.replace(/\.[0-9a-f]{16}\./, '.0123456789abcdef.');
      expect((await raw(`${s.url}${stale}`)).status).toBe(404);
    }
    expect((await raw(`${s.url}/sdk/sha224.d.mts`)).status).toBe(404);
    expect((await raw(`${s.url}/sdk/`)).status).toBe(404);
  });

  describe('digests agree with the service', () => {
    let sdk: typeof Sdk.SHA224;
    let esm: typeof Sdk;
    beforeAll(async () => {
      // The IIFE evaluated the way a page would: a script that defines the globals.
      const context = vm.createContext({ TextEncoder, btoa, Uint8Array, ArrayBuffer, DataView });
      vm.runInContext((await raw(`${s.url}/sdk/sha224.min.js`)).body.toString(), context);
      sdk = (context as { SHA224: typeof Sdk.SHA224 }).SHA224;
      const source = (await raw(`${s.url}/sdk/sha224.mjs`)).body.toString('base64');
      esm = (await import(`data:text/javascript;base64,${source}`)) as typeof Sdk;
    });

    const texts = [
      '',
      'abc',
      'héllo wörld',
      '☃ snow',
      '𝄞 clef, astral',
      'a'.repeat(55),
      'b'.repeat(56),
      'c'.repeat(64),
      'd'.repeat(1000),
      '\u0000\u0001\u007f',
    ];

    it('text: UTF-8, block edges, astral characters', async () => {
      for (const data of texts) {
        const server = await postJson(`${s.url}/v2/hash`, { data }, { 'x-api-key': s.keys.production });
        expect(sdk(data), JSON.stringify(data)).toBe(server.body.hash);
        expect(esm.SHA224(data), JSON.stringify(data)).toBe(server.body.hash);
        expect(sdk.verify(data, String(server.body.hash).toUpperCase())).toBe(true);
      }
    });

    it('bytes of random lengths', async () => {
      for (const length of [1, 63, 64, 65, 119, 120, 4095, 70_000]) {
        const bytes = randomBytes(length);
        const server = await postJson(
          `${s.url}/v2/hash`,
          { data: bytes.toString('base64'), encoding: 'base64', output: 'base64' },
          { 'x-api-key': s.keys.production },
        );
        expect(sdk.hash(new Uint8Array(bytes), 'base64'), `length ${length}`).toBe(server.body.hash);
        expect(esm.SHA224(new Uint8Array(bytes), 'base64'), `length ${length}`).toBe(server.body.hash);
      }
    });

    it('HMAC-SHA-224, one-shot and incremental, as /v2/hmac', async () => {
      for (const [key, data] of [
        ['key', 'The quick brown fox jumps over the lazy dog'],
        ['k'.repeat(100), 'long key, hashed first'],
        ['', 'empty key'],
      ] as const) {
        const server = await postJson(`${s.url}/v2/hmac`, { data, key }, { 'x-api-key': s.keys.production });
        expect(sdk.hmac(key, data)).toBe(server.body.hmac);
        expect(esm.SHA224.hmac.create(key).update(data.slice(0, 5)).update(data.slice(5)).digest()).toBe(server.body.hmac);
      }
    });
  });
});
