/**
 * The metrics module on its own: label bounding, the bearer guard on the API port and on the
 * worker's listener, the scrape cache, the usage-flush lag and the in-process queue's gauges.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpMetrics, MAX_ROUTES, generationOf, routeTemplateOf } from '../../api/middleware/http-metrics.js';
import { createLogger } from '../../shared/log.js';
import { cachedRefresh } from '../../shared/metrics/cached.js';
import { createMetrics, type Metrics } from '../../shared/metrics/catalogue.js';
import { bearerMatches, metricsAccess } from '../../shared/metrics/exposition.js';
import { boundedCode, countRefusal, jobRecorder } from '../../shared/metrics/record.js';
import { UsageBuffer } from '../../shared/limits/usage-buffer.js';
import { InProcessQueue } from '../../shared/queue/in-process.js';
import { createJobHandlers } from '../../workers/registry.js';
import { assertMetricsBinding, isLoopbackHost, startMetricsServer } from '../../workers/metrics-server.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC } from '../helpers/digests.js';

const silent = createLogger('silent');
const TOKEN = 'metrics-token-0123456789abcdef';

/** One sample's value from the text exposition, or undefined if the series is absent. */
async function sample(metrics: Metrics, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const json = await metrics.registry.getSingleMetric(name)?.get();
  const match = json?.values.find((v) => {
    const metricName = (v as { metricName?: string }).metricName;
    if (metricName !== undefined && metricName !== name) return false;
    return (
      Object.entries(labels).every(([k, val]) => String((v.labels as Record<string, unknown>)[k]) === val) &&
      Object.keys(v.labels).filter((k) => k !== 'le').length === Object.keys(labels).length
    );
  });
  return match?.value;
}

async function serve(app: express.Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('HTTP request metrics', () => {
  const metrics = createMetrics();
  let site: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    const app = express();
    app.use(httpMetrics(metrics, { maxRoutes: 5 }));
    const v2 = express.Router();
    v2.get('/jobs/:id', (_req, res) => {
      res.json({ ok: true });
    });
    v2.post('/hash', (_req, res) => {
      res.status(400).json({ ok: false });
    });
    app.use('/v2', v2);
    app.get('/r/:n', (_req, res) => {
      res.send('x');
    });
    app.use((_req, res) => {
      res.status(404).end();
    });
    site = await serve(app);
  });
  afterAll(() => site.close());

  it('labels requests by route template, never by raw path or id', async () => {
    for (const id of ['a1', 'b2', 'c3']) expect((await fetch(`${site.url}/v2/jobs/${id}`)).status).toBe(200);
    expect((await fetch(`${site.url}/V2/jobs/SECRET-KEY`)).status).toBe(200);
    expect((await fetch(`${site.url}/v2/hash`, { method: 'POST' })).status).toBe(400);
    expect((await fetch(`${site.url}/nowhere/sk_live_abc`)).status).toBe(404);
    expect(
      await sample(metrics, 'sha224d_http_requests_total', { route: '/v2/jobs/:id', generation: 'v2', method: 'GET', status: '200' }),
    ).toBe(4);
    expect(
      await sample(metrics, 'sha224d_http_requests_total', { route: '/v2/hash', generation: 'v2', method: 'POST', status: '400' }),
    ).toBe(1);
    expect(
      await sample(metrics, 'sha224d_http_requests_total', { route: '(unmatched)', generation: 'other', method: 'GET', status: '404' }),
    ).toBe(1);
    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/a1|b2|SECRET|sk_live|nowhere/);
    expect(text).toMatch(/sha224d_http_request_duration_seconds_count\{route="\/v2\/jobs\/:id",generation="v2",method="GET"\} 4/);
    expect(await sample(metrics, 'sha224d_http_requests_in_flight')).toBe(0);
  });

  it('caps the number of distinct route values', async () => {
    // Routes so far: /v2/jobs/:id, /v2/hash, (unmatched); /r/:n is the 4th, then the cap is 5.
    expect((await fetch(`${site.url}/r/1`)).status).toBe(200);
    const bounded = express();
    const capped = createMetrics();
    bounded.use(httpMetrics(capped, { maxRoutes: 2 }));
    for (const p of ['/a', '/b', '/c', '/d']) bounded.get(p, (_req, res) => void res.send('ok'));
    const s = await serve(bounded);
    try {
      for (const p of ['/a', '/b', '/c', '/d']) await fetch(`${s.url}${p}`);
      expect(await sample(capped, 'sha224d_http_requests_total', { route: '/a', generation: 'other', method: 'GET', status: '200' })).toBe(
        1,
      );
      expect(await sample(capped, 'sha224d_http_requests_total', { route: '/b', generation: 'other', method: 'GET', status: '200' })).toBe(
        1,
      );
      expect(
        await sample(capped, 'sha224d_http_requests_total', { route: '(other)', generation: 'other', method: 'GET', status: '200' }),
      ).toBe(2);
    } finally {
      await s.close();
    }
    expect(MAX_ROUTES).toBeGreaterThanOrEqual(100);
  });

  it('reads the generation from the path prefix', () => {
    expect(generationOf('/v1/hash')).toBe('v1');
    expect(generationOf('/V2/hash?x=1')).toBe('v2');
    expect(generationOf('/v2/ws')).toBe('ws');
    expect(generationOf('/v2/wsx')).toBe('v2');
    expect(generationOf('/socket.io/?EIO=4')).toBe('socketio');
    expect(generationOf('/v10/hash')).toBe('other');
    expect(generationOf('/metrics')).toBe('other');
    expect(routeTemplateOf({ baseUrl: '/sdk' } as never)).toBe('/sdk/*');
    expect(routeTemplateOf({ baseUrl: '/V2', route: { path: '/' } } as never)).toBe('/v2');
  });
});

describe('bounded job and refusal labels', () => {
  it('maps unknown codes to INTERNAL_ERROR and ignores unknown kinds', async () => {
    const metrics = createMetrics();
    const jobs = jobRecorder(metrics);
    jobs.failed('hash', 'NOT_A_CODE');
    jobs.failed('hash', 'INVALID_INPUT');
    jobs.retried('file', 'SERVICE_UNAVAILABLE');
    jobs.failed('nope' as 'hash', 'INVALID_INPUT');
    jobs.completed('verify', 'inline');
    jobs.ran('verify', 0.002);
    countRefusal(metrics, 'quota');
    countRefusal(metrics, 'quota');
    expect(boundedCode('__proto__')).toBe('INTERNAL_ERROR');
    expect(await sample(metrics, 'sha224d_jobs_failed_total', { kind: 'hash', code: 'INTERNAL_ERROR' })).toBe(1);
    expect(await sample(metrics, 'sha224d_jobs_failed_total', { kind: 'hash', code: 'INVALID_INPUT' })).toBe(1);
    expect(await sample(metrics, 'sha224d_jobs_retried_total', { kind: 'file', code: 'SERVICE_UNAVAILABLE' })).toBe(1);
    expect(await sample(metrics, 'sha224d_jobs_completed_total', { kind: 'verify', path: 'inline' })).toBe(1);
    expect(await sample(metrics, 'sha224d_refusals_total', { reason: 'quota' })).toBe(2);
    expect(await metrics.registry.metrics()).not.toMatch(/nope/);
  });
});

describe('the bearer guard', () => {
  it('compares the whole token', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(metricsAccess(undefined, undefined, true)).toBe('not_found');
    expect(metricsAccess(undefined, undefined, false)).toBe('allowed');
    expect(metricsAccess('Bearer wrong', TOKEN, false)).toBe('unauthorized');
  });

  describe('on the API port', () => {
    let guarded: TestServer;
    let open: TestServer;
    beforeAll(async () => {
      [guarded, open] = await Promise.all([startTestServer({ env: { METRICS_TOKEN: TOKEN, TRUST_PROXY: 'true' } }), startTestServer()]);
    });
    afterAll(() => Promise.all([guarded.close(), open.close()]));

    it('is 404 when METRICS_TOKEN is unset, whatever is presented', async () => {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
        const res = await fetch(`${open.url}/metrics`, { headers });
        expect(res.status).toBe(404);
        expect((await res.json()).error.code).toBe('NOT_FOUND');
      }
    });

    it('is 401 without the token or with a wrong one, before the HTTPS redirect', async () => {
      for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all' }, { authorization: `Basic ${TOKEN}` }] as Array<
        Record<string, string>
      >) {
        const res = await fetch(`${guarded.url}/metrics`, { headers, redirect: 'manual' });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        const body = await res.json();
        expect(body.error).toMatchObject({ code: 'UNAUTHORIZED', message: 'Invalid or missing metrics token' });
      }
    });

    it('serves the catalogue and the default metrics to the right token, on plain HTTP', async () => {
      await fetch(`${guarded.url}/v2/hash`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': guarded.keys.production, 'x-forwarded-proto': 'https' },
        body: '{"data":"abc"}',
      });
      const upload = await fetch(`${guarded.url}/v2/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-api-key': guarded.keys.production, 'x-forwarded-proto': 'https' },
        body: Buffer.alloc(1000, 7),
      });
      expect(upload.status).toBe(200);
      const res = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` }, redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(text).toMatch(/^sha224d_http_requests_total\{route="\/v2\/hash",generation="v2",method="POST",status="200"\} [1-9]/m);
      expect(text).toMatch(/^sha224d_jobs_completed_total\{kind="hash",path="inline"\} [1-9]/m);
      expect(text).toMatch(/^process_resident_memory_bytes [1-9]/m);
      expect(text).toMatch(/^sha224d_http_upload_bytes_total\{route="\/v2\/stream"\} 1000$/m);
      // Hashed while it arrived (HASH_UPLOADS_WHILE_RECEIVING): an inline job.
      expect(text).toMatch(/^sha224d_jobs_completed_total\{kind="stream",path="inline"\} 1$/m);
    });
  });
});

describe("the worker's metrics listener", () => {
  it('refuses a non-loopback address without a token', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('127.3.2.1')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
    expect(() => assertMetricsBinding('0.0.0.0', undefined)).toThrow(
      /METRICS_HOST=0\.0\.0\.0 is not a loopback address: set METRICS_TOKEN/,
    );
    expect(() => assertMetricsBinding('0.0.0.0', TOKEN)).not.toThrow();
    expect(() => assertMetricsBinding('127.0.0.1', undefined)).not.toThrow();
  });

  it('answers /metrics behind the token, /healthz, and /readyz from the probes', async () => {
    const metrics = createMetrics();
    let redisUp = true;
    const server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      metrics,
      logger: silent,
      ready: () => Promise.resolve({ redis: redisUp, blobs: true }),
    });
    const base = `http://127.0.0.1:${server.port}`;
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/# TYPE sha224d_queue_jobs gauge/);
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready', checks: { redis: 'ok', blobs: 'ok' } });
      redisUp = false;
      const down = await fetch(`${base}/readyz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ status: 'not_ready', checks: { redis: 'failed', blobs: 'ok' } });
      expect((await fetch(`${base}/other`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});

describe('scrape-time reads', () => {
  it('refresh at most once per TTL and share a refresh in flight', async () => {
    let clock = 0;
    let calls = 0;
    let release: () => void = () => undefined;
    const refresh = cachedRefresh(
      () => {
        calls++;
        return new Promise<void>((resolve) => (release = resolve));
      },
      2000,
      () => clock,
    );
    const a = refresh();
    const b = refresh();
    release();
    await Promise.all([a, b]);
    expect(calls).toBe(1);
    clock = 1999;
    await refresh();
    expect(calls).toBe(1);
    clock = 2000;
    const c = refresh();
    release();
    await c;
    expect(calls).toBe(2);
  });

  it('report the usage-flush lag of the oldest unflushed count, kept across a failed flush', async () => {
    let clock = 1_000_000;
    let failing = true;
    let failures = 0;
    const store = {
      applyUsage: () => (failing ? Promise.reject(new Error('down')) : Promise.resolve()),
      getUsage: () => Promise.resolve(0),
    };
    const buffer = new UsageBuffer(store, undefined, { now: () => clock, onFlushFailed: () => failures++ });
    expect(buffer.lagSeconds()).toBe(0);
    buffer.add('acct', '2026-11-23', 'production', 1);
    clock += 3000;
    buffer.add('acct', '2026-11-23', 'production', 1);
    clock += 1500;
    expect(buffer.lagSeconds()).toBe(4.5);
    await expect(buffer.flush()).rejects.toThrow('down');
    expect(failures).toBe(1);
    expect(buffer.lagSeconds()).toBe(4.5);
    failing = false;
    await buffer.flush();
    expect(buffer.lagSeconds()).toBe(0);
  });

  it('give the in-process queue the same gauges as BullMQ', async () => {
    const metrics = createMetrics();
    let unblock: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (unblock = resolve));
    const real = createJobHandlers({ allowLoopbackUrls: false });
    const queue = new InProcessQueue({
      handlers: { ...real, hash: async (p, ctx) => (await gate, real.hash(p, ctx)) },
      blobs: { ping: () => Promise.resolve() } as never,
      logger: silent,
      concurrency: 1,
      retentionMs: 60_000,
      blobRetentionMs: 0,
      metrics,
    });
    try {
      const first = queue.run('hash', { data: 'abc', encoding: 'utf8' }, { accountId: 'a', timeoutMs: 5000 });
      const second = queue.run('hash', { data: 'abc', encoding: 'utf8' }, { accountId: 'a', timeoutMs: 5000 });
      await vi.waitFor(() => expect(queue.figures().get('hash')!.counts.active).toBe(1));
      const figures = queue.figures(Date.now() + 2000).get('hash')!;
      expect(figures.counts).toEqual({ waiting: 1, active: 1, delayed: 0, failed: 0, paused: 0 });
      expect(figures.oldestWaitingAgeSeconds).toBeGreaterThanOrEqual(2);
      expect(queue.figures().get('file')!.counts.waiting).toBe(0);
      unblock();
      expect((await first).digest).toBe(SHA224_ABC);
      await second;
      // An answered synchronous job is forgotten at once; an async one is kept, and counted while it is.
      await expect(queue.run('hash', { data: '%%', encoding: 'base64' }, { accountId: 'a', timeoutMs: 5000 })).rejects.toThrow();
      expect(queue.figures().get('hash')!.counts.failed).toBe(0);
      const kept = await queue.submit('hash', { data: '%%', encoding: 'base64' }, { accountId: 'a' });
      await vi.waitFor(async () => expect((await queue.get(kept.id))?.state).toBe('failed'));
      expect(queue.figures().get('hash')!.counts).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1, paused: 0 });
      expect(await sample(metrics, 'sha224d_jobs_completed_total', { kind: 'hash', path: 'queue' })).toBe(2);
      expect(await sample(metrics, 'sha224d_jobs_failed_total', { kind: 'hash', code: 'INVALID_INPUT' })).toBe(2);
    } finally {
      await queue.close();
    }
  });
});
