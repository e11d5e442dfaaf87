/**
 * Bad input always gets a clear 4xx in the generation's envelope, never a 500, a hang or a crash
 * (DEVELOPERS.md "Standards"): random JSON bodies, and valid bodies with one field replaced by a
 * random value, against every JSON endpoint. /v1/hash/url is left out on purpose: a random URL
 * could name a non-loopback address, and only loopback may ever be dialled here.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

const ENDPOINTS: Array<{ path: string; valid: Record<string, unknown>; v1: boolean }> = [
  { path: '/v2/hash', valid: { data: 'abc', encoding: 'utf8', output: 'hex' }, v1: false },
  { path: '/v2/verify', valid: { data: 'abc', hash: ABC }, v1: false },
  { path: '/v2/hmac', valid: { data: 'abc', key: 'k', key_encoding: 'utf8' }, v1: false },
  { path: '/v2/batch', valid: { items: [{ id: 'a', data: 'abc' }], parallel: true }, v1: false },
  { path: '/v1/hash', valid: { data: 'abc', encoding: 'utf8', outputFormat: 'hex' }, v1: true },
  { path: '/v1/verify', valid: { data: 'abc', hash: ABC }, v1: true },
  { path: '/v1/hmac', valid: { data: 'abc', key: 'k', keyEncoding: 'utf8' }, v1: true },
  { path: '/v1/hash/text', valid: { text: 'abc', encoding: 'utf8' }, v1: true },
  { path: '/v1/verify/text', valid: { text: 'abc', hash: ABC }, v1: true },
  { path: '/v1/batch/hash', valid: { items: [{ id: 'a', text: 'abc' }] }, v1: true },
  { path: '/v1/batch/verify', valid: { items: [{ id: 'a', text: 'abc', hash: ABC }] }, v1: true },
  { path: '/v1/compare', valid: { hash1: ABC, hash2: ABC }, v1: true },
];

describe('random and mutated bodies never make a 500', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  const send = async (path: string, body: string, v1: boolean) => {
    const auth: Record<string, string> = v1 ? { authorization: `Bearer ${s.keys.production}` } : { 'x-api-key': s.keys.production };
    const res = await fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(5000),
    });
    return { status: res.status, body: (await res.json()) as { success?: boolean; error?: { code: string; message: string } } };
  };

  it.each(ENDPOINTS)(
    '$path',
    async ({ path, valid, v1 }) => {
      const anyJson = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
      const mutated = fc
        .tuple(fc.constantFrom(...Object.keys(valid)), fc.jsonValue({ maxDepth: 2 }))
        .map(([field, value]) => JSON.stringify({ ...valid, [field]: value }));
      const garbage = fc.string({ maxLength: 40 });
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyJson, mutated, garbage), async (body) => {
          const r = await send(path, body, v1);
          // 429 cannot happen: the test account is enterprise (no rate limit, no quota).
          expect([200, 400, 413, 415]).toContain(r.status);
          if (r.status !== 200) {
            expect(r.body.error?.code).toMatch(/^[A-Z_]+$/);
            expect(typeof r.body.error?.message).toBe('string');
            // Each generation answers in its own envelope.
            if (v1) expect(r.body.success).toBeUndefined();
            else expect(r.body.success).toBe(false);
          }
        }),
        { numRuns: 60 },
      );
      // The server still answers a valid request afterwards.
      expect((await send(path, JSON.stringify(valid), v1)).status).toBe(200);
    },
    60_000,
  );
});
