/**
 * Verify on ingest on /v2/file and /v2/stream (X-Expected-SHA224), synchronous and async,
 * embedded and on a distributed cluster (the async job runs on a worker): a match answers
 * `verified: true`, a mismatch is 422 HASH_MISMATCH naming the expected and computed digests
 * (a failed job when async), a malformed header is 400 before any byte is stored. The tus route's
 * `sha224` metadata is covered in tus-protocol.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from '../helpers/api-server.js';
import { sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { startTarget, type Target, type TargetName } from '../helpers/targets.js';
import { waitFor } from '../helpers/wait.js';

describe.each<TargetName>(['sqlite', 'cluster'])('X-Expected-SHA224 on %s', (name) => {
  let t: Target;
  let key: Record<string, string>;
  beforeAll(async () => {
    t = await startTarget(name);
    key = { 'x-api-key': t.keys.production };
  }, 120_000);
  afterAll(() => t?.close());

  const data = randomBytes(200 * 1024 + 3);
  const right = sha224Hex(data);
  const wrong = sha224Hex(Buffer.from('something else'));

  const send = (route: 'file' | 'stream', expected: string, async = false): Promise<Response> =>
    route === 'file'
      ? fetch(`${t.url}/v2/file${async ? '?async=true' : ''}`, {
          method: 'POST',
          headers: { ...key, 'X-Expected-SHA224': expected },
          body: fileForm(data, { filename: 'a.bin' }),
        })
      : fetch(`${t.url}/v2/stream${async ? '?async=true' : ''}`, {
          method: 'POST',
          headers: { ...key, 'X-Expected-SHA224': expected, 'content-type': 'application/octet-stream' },
          body: new Uint8Array(data),
        });

  const jobOf = async (res: Response): Promise<any> => {
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    return waitFor(
      async () => {
        const { body } = await getJson(`${t.urls[t.urls.length - 1]}/v2/jobs/${job_id}`, key);
        return body.status === 'completed' || body.status === 'failed' ? body : undefined;
      },
      { timeoutMs: 30_000 },
    );
  };

  for (const route of ['file', 'stream'] as const) {
    it(`/v2/${route}: a match answers verified: true (upper-case hex accepted)`, async () => {
      const res = await send(route, right.toUpperCase());
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, hash: right, size: data.length, verified: true });
    });

    it(`/v2/${route}: a mismatch is 422 HASH_MISMATCH with both digests, and nothing stays stored`, async () => {
      const res = await send(route, wrong);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        success: false,
        error: {
          code: 'HASH_MISMATCH',
          message: 'The SHA-224 of the received bytes differs from the expected one',
          details: `expected ${wrong}, computed ${right}`,
          expected: wrong,
          computed: right,
        },
      });
      await waitFor(() => t.storedBlobs().length === 0, { what: 'no upload left stored' });
    });

    it(`/v2/${route}?async=true: the job says verified, or fails HASH_MISMATCH`, async () => {
      expect(await jobOf(await send(route, right, true))).toMatchObject({ status: 'completed', hash: right, verified: true });
      const failed = await jobOf(await send(route, wrong, true));
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'HASH_MISMATCH', details: `expected ${wrong}, computed ${right}` } });
    });

    it(`/v2/${route}: a malformed X-Expected-SHA224 is 400, and without it no verified field`, async () => {
      const bad = await send(route, 'abc');
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.details).toBe('field: x-expected-sha224');
      const plain =
        route === 'file'
          ? await fetch(`${t.url}/v2/file`, { method: 'POST', headers: key, body: fileForm(data, { filename: 'a.bin' }) })
          : await fetch(`${t.url}/v2/stream`, {
              method: 'POST',
              headers: { ...key, 'content-type': 'application/octet-stream' },
              body: new Uint8Array(data),
            });
      const body = (await plain.json()) as Record<string, unknown>;
      expect(body.hash).toBe(right);
      expect('verified' in body).toBe(false);
    });
  }
});
