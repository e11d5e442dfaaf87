/**
 * Retry rules against a small scripted server: 429 with Retry-After then 200, 503 twice then 200,
 * connection failures; uploads are retried only with an Idempotency-Key and a body that can be
 * produced again. Waits are asserted from the server's clock, never by sleeping in the test.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JobTimeoutError, RateLimitError, ServerError, Sha224dClient, type RetryEvent } from '../../../api/clients/typescript/src/node.js';
import { tempFile } from './helpers.js';

interface Arrival {
  at: number;
  path: string;
  idempotencyKey: string | undefined;
  requestId: string | undefined;
  bodyBytes: number;
}

type Scripted = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

const OK = { success: true, hash: 'h', algorithm: 'SHA-224', encoding: 'hex', timestamp: 't', processing_time_ms: 0 };
const busy = (status: number, headers: Record<string, string> = {}): Scripted => ({
  status,
  headers,
  body: { success: false, error: { code: status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'SERVICE_UNAVAILABLE', message: 'busy', details: '' } },
});

let server: http.Server;
let baseUrl: string;
let script: Scripted[] = [];
let arrivals: Arrival[] = [];
/** When each answer was sent (server clock), to measure the client's wait before the next attempt. */
let answeredAt: number[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on('end', () => {
      const key = req.headers['idempotency-key'];
      const id = req.headers['x-request-id'];
      arrivals.push({
        at: performance.now(),
        path: req.url ?? '',
        idempotencyKey: typeof key === 'string' ? key : undefined,
        requestId: typeof id === 'string' ? id : undefined,
        bodyBytes,
      });
      const next = script.shift() ?? { status: 200, body: OK };
      if (next === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      res.end(JSON.stringify(next.body ?? OK));
      answeredAt.push(performance.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  script = [];
  arrivals = [];
  answeredAt = [];
});

function client(options: ConstructorParameters<typeof Sha224dClient>[0] = {}): { client: Sha224dClient; events: RetryEvent[] } {
  const events: RetryEvent[] = [];
  // Jitter pinned to one half, so each backoff is exactly half its ceiling.
  const retry = options.retry === false ? false : { random: () => 0.5, ...options.retry };
  return { client: new Sha224dClient({ apiKey: 's224_test', baseUrl, ...options, retry, onRetry: (e) => events.push(e) }), events };
}

describe('retries', () => {
  it('429 with Retry-After: 1, then 200: two attempts, the second at least a second after the first answer', async () => {
    script = [busy(429, { 'retry-after': '1' })];
    const { client: c, events } = client();
    expect(await c.v2.hash({ data: 'abc' })).toEqual(OK);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]!.at - answeredAt[0]!).toBeGreaterThanOrEqual(990);
    expect(events).toEqual([expect.objectContaining({ operation: 'v2.hash', retry: 1, delayMs: 1000, status: 429 })]);
  });

  it('503 twice, then 200: three attempts after full-jitter exponential backoff', async () => {
    script = [busy(503), busy(503)];
    const { client: c, events } = client({ retry: { baseDelayMs: 200 } });
    expect(await c.v2.verify({ data: 'abc', hash: 'x' })).toEqual(OK);
    expect(arrivals).toHaveLength(3);
    expect(events.map((e) => [e.retry, e.delayMs, e.status])).toEqual([
      [1, 100, 503],
      [2, 200, 503],
    ]);
    expect(arrivals[1]!.at - answeredAt[0]!).toBeGreaterThanOrEqual(95);
    expect(arrivals[2]!.at - answeredAt[1]!).toBeGreaterThanOrEqual(195);
  });

  it('honours X-RateLimit-Retry-After when Retry-After is absent; retries 504', async () => {
    script = [busy(429, { 'x-ratelimit-retry-after': '1' }), busy(504)];
    const { client: c, events } = client({ retry: { baseDelayMs: 10 } });
    await c.v2.hash({ data: 'abc' });
    expect(events.map((e) => [e.delayMs, e.status])).toEqual([
      [1000, 429],
      [10, 504],
    ]);
  });

  it('a dropped connection is retried', async () => {
    script = ['drop'];
    const { client: c, events } = client({ retry: { baseDelayMs: 10 } });
    expect(await c.v1.hash({ data: 'abc' })).toEqual(OK);
    expect(arrivals).toHaveLength(2);
    expect(events[0]).toMatchObject({ status: undefined, error: expect.objectContaining({ code: 'NETWORK_ERROR' }) });
  });

  it('gives up after maxRetries and throws the last error, typed', async () => {
    script = [busy(503), busy(503), busy(503)];
    const { client: c } = client({ retry: { maxRetries: 2, baseDelayMs: 1 } });
    const err = await c.v2.hash({ data: 'abc' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(arrivals).toHaveLength(3);
  });

  it('a Retry-After longer than maxRetryAfterMs is not waited for', async () => {
    script = [busy(429, { 'retry-after': '3600' })];
    const { client: c } = client();
    const err = await c.v2.hash({ data: 'abc' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ retryAfter: 3600, status: 429 });
    expect(arrivals).toHaveLength(1);
  });

  it('one X-Request-Id per call, the same on each of its retries', async () => {
    script = [busy(503)];
    const { client: c } = client({ retry: { baseDelayMs: 1 } });
    await c.v2.hash({ data: 'abc' });
    await c.v2.hash({ data: 'abc' });
    expect(arrivals.map((a) => a.requestId)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      arrivals[0]!.requestId,
      expect.any(String),
    ]);
    expect(arrivals[2]!.requestId).not.toBe(arrivals[0]!.requestId);
  });

  it('a 504 JOB_TIMEOUT naming a job is not sent again: the job goes on', async () => {
    const timeout = { success: false, error: { code: 'JOB_TIMEOUT', message: 'late', details: '', job_id: 'job-1' } };
    script = [{ status: 504, body: timeout }];
    const { client: c } = client({ retry: { baseDelayMs: 1 } });
    const err = await c.v2.batch({ items: [{ id: 'a', data: 'b' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect(err).toMatchObject({ code: 'JOB_TIMEOUT', status: 504, jobId: 'job-1' });
    expect(arrivals).toHaveLength(1);
  });

  it('400 is never retried', async () => {
    script = [{ status: 400, body: { success: false, error: { code: 'INVALID_INPUT', message: 'bad', details: 'field: data' } } }];
    const { client: c } = client();
    await expect(c.v2.hash({ data: 'abc' })).rejects.toMatchObject({ code: 'INVALID_INPUT', details: 'field: data' });
    expect(arrivals).toHaveLength(1);
  });
});

describe('uploads and submissions', () => {
  it('an upload from a path carries one Idempotency-Key and is sent again whole', async () => {
    const file = tempFile(100_000);
    try {
      script = [busy(503)];
      const { client: c } = client({ retry: { baseDelayMs: 1 } });
      await c.v2.stream(file.file);
      expect(arrivals).toHaveLength(2);
      expect(arrivals[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(arrivals[1]!.idempotencyKey).toBe(arrivals[0]!.idempotencyKey);
      expect(arrivals.map((a) => a.bodyBytes)).toEqual([100_000, 100_000]);
    } finally {
      file.remove();
    }
  });

  it('a one-shot stream is sent once: its bytes cannot be produced again', async () => {
    script = [busy(503)];
    const { client: c } = client({ retry: { baseDelayMs: 1 } });
    await expect(c.v2.file(Readable.from([Buffer.alloc(5000)]))).rejects.toMatchObject({ status: 503 });
    expect(arrivals).toHaveLength(1);
  });

  it('with retries off, no Idempotency-Key is generated and nothing is retried', async () => {
    script = [busy(503)];
    const { client: c } = client({ retry: false });
    await expect(c.v2.file(new Blob([new Uint8Array(10)]))).rejects.toMatchObject({ status: 503 });
    expect(arrivals).toEqual([expect.objectContaining({ idempotencyKey: undefined })]);
  });

  it('a job submission keeps its Idempotency-Key across retries; a given key is sent as is', async () => {
    script = [busy(503)];
    const { client: c } = client({ retry: { baseDelayMs: 1 } });
    await c.jobs.submit('batch', { items: [{ id: 'a', data: 'b' }] });
    expect(arrivals.map((a) => a.path)).toEqual(['/v2/batch?async=true', '/v2/batch?async=true']);
    expect(arrivals[1]!.idempotencyKey).toBe(arrivals[0]!.idempotencyKey);
    await c.jobs.submit('batch', { items: [{ id: 'a', data: 'b' }] }, { idempotencyKey: 'order-42' });
    expect(arrivals[2]!.idempotencyKey).toBe('order-42');
  });

  it('a 3xx is reported, not followed (a redirect would carry the key elsewhere), for JSON and for uploads', async () => {
    const redirect: Scripted = { status: 308, headers: { location: 'https://elsewhere.example/v2/hash' }, body: {} };
    script = [redirect, redirect];
    const { client: c } = client();
    await expect(c.v2.hash({ data: 'abc' })).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 308 });
    await expect(c.v2.stream(new Blob([new Uint8Array(10)]))).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
    expect(arrivals).toHaveLength(2);
  });
});
