/**
 * The client library as the service serves it (/sdk/sha224.min.js) gives the same digests as the
 * service's own /v2/hash and /v2/hmac for the same inputs (issue 7 §4), and is served cacheably.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';

interface Sdk {
  hash(message: string | Uint8Array, encoding?: string): string;
  hmac(key: string | Uint8Array, message: string | Uint8Array): string;
  verify(message: string | Uint8Array, expected: string): boolean;
}

const DIST = path.join(import.meta.dirname, '..', '..', 'shared', 'sdk', 'dist', 'sha224.min.js');

describe('the served client library', () => {
  let s: TestServer;
  let sdk: Sdk;
  let res: Response;
  let source: string;
  beforeAll(async () => {
    s = await startTestServer();
    res = await fetch(`${s.url}/sdk/sha224.min.js`);
    source = await res.text();
    // Evaluate it the way a page would: a script that defines the global SHA224.
    const context = vm.createContext({ TextEncoder, btoa, Uint8Array, ArrayBuffer, DataView });
    vm.runInContext(source, context);
    sdk = (context as { SHA224: Sdk }).SHA224;
  });
  afterAll(() => s.close());

  it('is the built bundle, served as JavaScript with caching headers and an ETag', async () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(source).toBe(readFileSync(DIST, 'utf8'));
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const again = await fetch(`${s.url}/sdk/sha224.min.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  const texts = ['', 'abc', 'héllo wörld', '☃ snow', '𝄞 clef, astral', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(64), 'd'.repeat(1000), '\u0000\u0001\u007f'];

  it('hashes text exactly as the server does (UTF-8, block edges, astral characters)', async () => {
    for (const data of texts) {
      const server = await postJson(`${s.url}/v2/hash`, { data }, { 'x-api-key': s.keys.production });
      expect(sdk.hash(data), JSON.stringify(data)).toBe(server.body.hash);
      expect(sdk.verify(data, String(server.body.hash).toUpperCase())).toBe(true);
    }
  });

  it('hashes bytes exactly as the server does, for random lengths', async () => {
    for (const length of [1, 63, 64, 65, 119, 120, 4095, 70_000]) {
      const bytes = randomBytes(length);
      const server = await postJson(`${s.url}/v2/hash`, { data: bytes.toString('base64'), encoding: 'base64', output: 'base64' }, { 'x-api-key': s.keys.production });
      expect(sdk.hash(new Uint8Array(bytes), 'base64'), `length ${length}`).toBe(server.body.hash);
    }
  });

  it('computes HMAC-SHA-224 exactly as /v2/hmac does', async () => {
    for (const [key, data] of [['key', 'The quick brown fox jumps over the lazy dog'], ['k'.repeat(100), 'long key, hashed first'], ['', 'empty key']] as const) {
      const server = await postJson(`${s.url}/v2/hmac`, { data, key }, { 'x-api-key': s.keys.production });
      expect(sdk.hmac(key, data)).toBe(server.body.hmac);
    }
  });
});
