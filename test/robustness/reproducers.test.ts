/**
 * The named requests that used to take the service down or answer wrongly, each against the real
 * `npm start` bundle in its own process: the status and the envelope are asserted, then that the
 * process is still running (`kill -0`), answers /v2/hash correctly and kept no uploaded bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFor, exchange, head, type RawExchange } from './raw-client.js';
import { answersHash, blobsLeft, spawnEmbedded, type Service } from './services.js';

const IDLE_MS = 400;
const FILE_ENDPOINTS = ['/v2/file', '/v1/file/hash', '/v1/hash/file', '/v1/verify/file'] as const;
const JSON_ENDPOINTS = [
  '/v2/hash',
  '/v2/verify',
  '/v2/hmac',
  '/v2/batch',
  '/v1/hash',
  '/v1/verify',
  '/v1/hmac',
  '/v1/hash/text',
  '/v1/hash/url',
  '/v1/verify/text',
  '/v1/batch/hash',
  '/v1/batch/verify',
  '/v1/compare',
] as const;

/** The generation's error envelope for `code` (docs/api.md "v2 errors" / "v1 Set B"). */
function envelope(target: string, code: string, message: string, details: string): unknown {
  return target.startsWith('/v1')
    ? { error: { code, message, details: { info: details } } }
    : { success: false, error: { code, message, details } };
}

function only(x: RawExchange): { status: number; json: unknown; headers: Record<string, string> } {
  expect(x.responses).toHaveLength(1);
  return x.responses[0]!;
}

describe('named reproducers against embedded mode (spawned)', () => {
  let s: Service;
  beforeAll(async () => {
    s = await spawnEmbedded({ BODY_IDLE_TIMEOUT_MS: String(IDLE_MS), REQUEST_TIMEOUT_MS: '5000' });
  });
  afterAll(async () => {
    expect(s.alive(), s.output()).toBe(true);
    await s.close();
  });

  async function stillServing(): Promise<void> {
    expect(s.alive(), s.output()).toBe(true);
    await answersHash(s);
    expect(await blobsLeft(s)).toEqual([]);
  }

  it.each(FILE_ENDPOINTS)('a multipart body without its closing boundary at %s is 400, not a crash', async (target) => {
    const body = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc';
    const x = await exchange(s.port, {
      head: head('POST', target, {
        ...authFor(target, s.key),
        'Content-Type': 'multipart/form-data; boundary=XX',
        'Content-Length': body.length,
      }),
      then: [body],
    });
    const r = only(x);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(envelope(target, 'INVALID_INPUT', 'Malformed multipart body', 'field: body'));
    await stillServing();
  });

  it('/v2/stream with an invalid chunk size line is 400 in the envelope, not a crash', async () => {
    const x = await exchange(s.port, {
      head: head('POST', '/v2/stream', { 'X-API-Key': s.key, 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' }),
      then: ['zz\r\nabc\r\n0\r\n\r\n'],
    });
    const r = only(x);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(envelope('/v2', 'INVALID_INPUT', 'Invalid chunked transfer encoding', 'field: body'));
    expect(x.serverClosed).toBe(true);
    await stillServing();
  });

  const uploads: Array<[string, string, Record<string, string | number>, string]> = [
    ['/v2/stream chunked', '/v2/stream', { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' }, '5\r\nabcde\r\n'],
    ['/v2/stream with Content-Length', '/v2/stream', { 'Content-Type': 'application/octet-stream', 'Content-Length': 100_000 }, 'abc'],
    [
      '/v2/file',
      '/v2/file',
      { 'Content-Type': 'multipart/form-data; boundary=XX', 'Content-Length': 100_000 },
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    ],
    [
      '/v1/hash/file',
      '/v1/hash/file',
      { 'Content-Type': 'multipart/form-data; boundary=XX', 'Content-Length': 100_000 },
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    ],
  ];
  it.each(uploads.flatMap(([name, target, headers, first]) => [0, 1, 2].map((ms) => [name, ms, target, headers, first] as const)))(
    'a client that cancels %s %i ms after its headers leaves the service up and no blob behind',
    async (_name, ms, target, headers, first) => {
      await exchange(s.port, { head: head('POST', target, { ...authFor(target, s.key), ...headers }), then: [first], abortAfterMs: ms });
      await stillServing();
    },
  );

  it.each([
    ['/v2/hash', { 'Content-Type': 'application/json', 'Content-Length': 100 }, '{"data":'],
    ['/v1/hash', { 'Content-Type': 'application/json', 'Content-Length': 100 }, '{"data":'],
    ['/v2/stream', { 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' }, '3\r\nabc\r\n'],
    [
      '/v1/hash/file',
      { 'Content-Type': 'multipart/form-data; boundary=XX', 'Content-Length': 100_000 },
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    ],
  ] as const)('a body that stalls at %s is answered 408 REQUEST_TIMEOUT in the envelope, then closed', async (target, headers, first) => {
    const x = await exchange(s.port, { head: head('POST', target, { ...authFor(target, s.key), ...headers }), then: [first] });
    const r = only(x);
    expect(r.status).toBe(408);
    expect(r.json).toEqual(envelope(target, 'REQUEST_TIMEOUT', 'The request body stalled', `no body bytes arrived for ${IDLE_MS} ms`));
    expect(x.serverClosed).toBe(true);
    // Bounded: the idle timeout plus the checker's period and some scheduling slack.
    expect(x.closedAfterMs).toBeGreaterThanOrEqual(IDLE_MS);
    expect(x.closedAfterMs).toBeLessThan(IDLE_MS + 3000);
    await stillServing();
  });

  it.each(JSON_ENDPOINTS.flatMap((target) => [['gzip', target] as const, ['br', target] as const]))(
    'Content-Encoding: %s on %s is 415 UNSUPPORTED_MEDIA_TYPE in the envelope, never a 500',
    async (coding, target) => {
      const body = '{"data":"abc"}';
      const x = await exchange(s.port, {
        head: head('POST', target, {
          ...authFor(target, s.key),
          'Content-Type': 'application/json',
          'Content-Encoding': coding,
          'Content-Length': body.length,
        }),
        then: [body],
      });
      const r = only(x);
      expect(r.status).toBe(415);
      expect(r.json).toEqual(
        envelope(
          target,
          'UNSUPPORTED_MEDIA_TYPE',
          'Content-Encoding must be identity; send the body uncompressed',
          'header: content-encoding',
        ),
      );
    },
  );

  it("GET /v2/jobs/%ZZ is 400 in the envelope, with the caller's rate-limit headers", async () => {
    const x = await exchange(s.port, { head: head('GET', '/v2/jobs/%ZZ', { 'X-API-Key': s.key }) });
    const r = only(x);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(envelope('/v2', 'INVALID_INPUT', 'The request path has malformed percent-encoding', 'field: path'));
    expect(r.headers['x-ratelimit-limit']).toBe('-1');
    await stillServing();
  });
});
