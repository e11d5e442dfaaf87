/**
 * A real Prometheus (Debian's /usr/bin/prometheus) scrapes an embedded node, an API node and a
 * worker of a cluster every second with the bearer token, as deploy/prometheus/prometheus.yml
 * does in production; the test then reads the series back through Prometheus's HTTP API. Also:
 * a request's id and traceparent reach the worker's log lines for its job.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { bullQueueName } from '../../shared/naming.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const PROMETHEUS = '/usr/bin/prometheus';
const TOKEN = 'scrape-token-5f2b9c0d8e7a6b4c';

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

let cluster: Cluster;
let embedded: SpawnedProcess;
let embeddedUrl: string;
let embeddedKey: string;
let workerMetrics: string;
let prometheus: ChildProcess;
let promUrl: string;
let promLog = '';
const dirs: string[] = [];

function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), name));
  dirs.push(dir);
  return dir;
}

async function query(expr: string): Promise<Sample[]> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; data: { result: Sample[] }; error?: string };
  if (body.status !== 'success') throw new Error(`query ${expr} failed: ${body.error ?? res.status}`);
  return body.data.result;
}

/** Poll Prometheus until `check` accepts the result (each scrape is 1 s apart). */
async function eventually(expr: string, check: (samples: Sample[]) => boolean, timeoutMs = 40_000): Promise<Sample[]> {
  let last: Sample[] = [];
  try {
    return await waitFor(
      async () => {
        last = await query(expr);
        return check(last) && last;
      },
      { timeoutMs, intervalMs: 250, what: expr },
    );
  } catch (err) {
    throw new Error(`${expr} never satisfied the check; last result ${JSON.stringify(last)}\nprometheus:\n${promLog.slice(-2000)}`, {
      cause: err,
    });
  }
}

const valueOf = (samples: Sample[], labels: Record<string, string> = {}): number | undefined => {
  const found = samples.find((s) => Object.entries(labels).every(([k, v]) => s.metric[k] === v));
  return found === undefined ? undefined : Number(found.value[1]);
};

function hostPort(url: string): string {
  return new URL(url).host;
}

async function hash(url: string, key: string, data: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v2/hash`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
    body: JSON.stringify({ data }),
  });
}

beforeAll(async () => {
  cluster = await startCluster({
    apiNodes: 1,
    workers: 1,
    env: { METRICS_TOKEN: TOKEN, METRICS_PORT: '0', LOG_LEVEL: 'info', USAGE_FLUSH_INTERVAL_MS: '500' },
  });
  workerMetrics = (await cluster.workers[0]!.waitFor(/worker metrics listening on (http:\/\/\S+)/))[1]!;
  const dataDir = tempDir('sha224d-embedded-');
  embedded = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0', METRICS_TOKEN: TOKEN, BOOTSTRAP_ADMIN: 'true' });
  embeddedUrl = (await embedded.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  embeddedKey = (await embedded.waitFor(/API key: (\S+)/))[1]!;

  const promDir = tempDir('sha224d-prometheus-');
  const job = (name: string, targets: string[]): string =>
    [
      `  - job_name: ${name}`,
      '    scrape_interval: 1s',
      '    scrape_timeout: 900ms',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${TOKEN}`,
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
    ].join('\n');
  fs.writeFileSync(
    path.join(promDir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      job('sha224d-api', [hostPort(embeddedUrl), hostPort(cluster.url(0))]),
      job('sha224d-worker', [hostPort(workerMetrics)]),
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(promDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(promDir, 'data')}`,
      // Port 0: Prometheus logs the port it was given ("Listening on" address=…), at level info.
      '--web.listen-address=127.0.0.1:0',
      '--log.level=info',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout?.on('data', (chunk: Buffer) => (promLog += chunk.toString()));
  prometheus.stderr?.on('data', (chunk: Buffer) => (promLog += chunk.toString()));
  const listening = await waitFor(
    () => {
      if (prometheus.exitCode !== null) throw new Error(`prometheus exited (${prometheus.exitCode}):\n${promLog}`);
      return /msg="Listening on" address=(127\.0\.0\.1:\d+)/.exec(promLog);
    },
    { timeoutMs: 30_000, what: 'Prometheus to listen' },
  );
  promUrl = `http://${listening[1]!}`;
  await waitFor(async () => (await fetch(`${promUrl}/-/ready`)).ok, { timeoutMs: 30_000, what: 'Prometheus to be ready' });
  // Ready when every target has been scraped successfully once.
  await eventually('up', (s) => s.length === 3 && s.every((x) => x.value[1] === '1'));
}, 120_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await embedded?.stop('SIGKILL');
  await cluster?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('Prometheus scraping an embedded node, an API node and a worker', () => {
  it('counts exactly the requests sent, per node, with route templates', async () => {
    const sent = { embedded: 5, api: 7 };
    for (let i = 0; i < sent.embedded; i++) expect((await hash(embeddedUrl, embeddedKey, `e${i}`)).status).toBe(200);
    for (let i = 0; i < sent.api; i++) expect((await hash(cluster.url(0), cluster.keys.production, `a${i}`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await hash(cluster.url(0), 'sk_test_not_a_key', 'x')).status).toBe(401);

    const ok = await eventually(
      'sha224d_http_requests_total{route="/v2/hash",status="200"}',
      (s) =>
        valueOf(s, { instance: hostPort(embeddedUrl) }) === sent.embedded &&
        valueOf(s, { instance: hostPort(cluster.url(0)) }) === sent.api,
    );
    expect(ok.every((s) => s.metric.job === 'sha224d-api' && s.metric.generation === 'v2' && s.metric.method === 'POST')).toBe(true);
    const refused = await eventually(
      'sha224d_refusals_total{reason="auth"}',
      (s) => valueOf(s, { instance: hostPort(cluster.url(0)) }) === 3,
    );
    expect(valueOf(refused, { instance: hostPort(cluster.url(0)) })).toBe(3);
    // Small inputs are hashed inline on the API node (INLINE_MAX_BYTES).
    await eventually(
      'sha224d_jobs_completed_total{kind="hash",path="inline"}',
      (s) =>
        valueOf(s, { instance: hostPort(embeddedUrl) }) === sent.embedded &&
        valueOf(s, { instance: hostPort(cluster.url(0)) }) === sent.api,
    );
    const latency = await query('sum by (instance) (sha224d_http_request_duration_seconds_count{route="/v2/hash"})');
    expect(latency.length).toBe(2);
    // Every node reports its dependencies; the worker its own Redis and blob store.
    const deps = await eventually('sha224d_dependency_up', (s) => s.length >= 6);
    expect(deps.every((s) => s.value[1] === '1')).toBe(true);
    expect(valueOf(deps, { job: 'sha224d-worker', dependency: 'redis' })).toBe(1);
    expect(valueOf(deps, { instance: hostPort(cluster.url(0)), dependency: 'store' })).toBe(1);
    const defaults = await query('process_resident_memory_bytes');
    expect(defaults.length).toBe(3);
    // A scrape fits its 1 s interval on every node, queue reads included (on a quiet machine it takes
    // milliseconds; the bound is the interval itself, which a loaded 2-core machine still meets).
    const durations = await query('scrape_duration_seconds');
    expect(durations.length).toBe(3);
    for (const d of durations) expect(Number(d.value[1]), d.metric.instance).toBeLessThan(1);
  });

  it('reads a paused queue waiting N jobs, then the worker runs them all', async () => {
    const n = 6;
    const queue = new Queue(bullQueueName('batch'), { connection: { url: cluster.env.REDIS_URL }, prefix: cluster.env.QUEUE_PREFIX });
    try {
      await queue.pause();
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${cluster.url(0)}/v2/batch?async=true`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': cluster.keys.production },
          body: JSON.stringify({ items: [{ id: 'a', data: `job ${i}` }] }),
        });
        expect(res.status).toBe(202);
      }
      const waiting = await eventually('max by (queue) (sha224d_queue_jobs{queue="batch",state="waiting"})', (s) => valueOf(s) === n);
      expect(valueOf(waiting)).toBe(n);
      expect(valueOf(await query('max by (queue) (sha224d_queue_jobs{queue="batch",state="paused"})'))).toBe(n);
      await eventually('max by (queue) (sha224d_queue_oldest_waiting_age_seconds{queue="batch"})', (s) => (valueOf(s) ?? 0) > 0);
      expect(valueOf(await query('max by (queue) (sha224d_queue_workers{queue="batch"})'))).toBe(1);

      await queue.resume();
      await eventually('max by (queue) (sha224d_queue_jobs{queue="batch",state="waiting"})', (s) => valueOf(s) === 0);
      const done = await eventually('sha224d_jobs_completed_total{kind="batch",path="queue"}', (s) => valueOf(s) === n);
      expect(done[0]!.metric.job).toBe('sha224d-worker');
      const waited = await eventually('sha224d_job_wait_seconds_count{kind="batch"}', (s) => valueOf(s) === n);
      expect(waited[0]!.metric.job).toBe('sha224d-worker');
    } finally {
      await queue.close();
    }
  });
});

describe("a worker's metrics listener on a public address", () => {
  it('refuses to start without METRICS_TOKEN, naming both settings', async () => {
    const { METRICS_TOKEN: _token, ...env } = cluster.env;
    const worker = spawnEntry('worker', { ...env, METRICS_HOST: '0.0.0.0', METRICS_PORT: '0' });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toMatch(/worker failed to start: METRICS_HOST=0\.0\.0\.0 is not a loopback address: set METRICS_TOKEN/);
  });
});

describe('realtime connections', () => {
  it('are reported per transport while open', async () => {
    const ws = new WebSocket(`${cluster.url(0).replace('http:', 'ws:')}/v2/ws?api_key=${cluster.keys.production}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    try {
      await eventually('sha224d_realtime_connections{transport="ws"}', (s) => valueOf(s, { instance: hostPort(cluster.url(0)) }) === 1);
    } finally {
      ws.close();
    }
    await eventually('sha224d_realtime_connections{transport="ws"}', (s) => valueOf(s, { instance: hostPort(cluster.url(0)) }) === 0);
  });
});

describe('a request traced across the queue', () => {
  it("puts the request id and the caller's traceparent on the worker's job lines", async () => {
    const requestId = `trace-${Date.now()}`;
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    // Over INLINE_MAX_BYTES, so it goes through the queue to the worker.
    const big = 'x'.repeat(70 * 1024);
    const res = await hash(cluster.url(0), cluster.keys.production, big, { 'x-request-id': requestId, traceparent });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const workerLine = await cluster.workers[0]!.waitFor(new RegExp(`^.*"requestId":"${requestId}".*"msg":"job completed".*$`, 'm'));
    const line = JSON.parse(workerLine[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ requestId, traceparent, kind: 'hash', attempt: 1, msg: 'job completed' });
    expect(line.jobId).toEqual(expect.any(String));
    const apiLine = await cluster.apis[0]!.waitFor(new RegExp(`^.*"requestId":"${requestId}".*"msg":"request".*$`, 'm'));
    expect(JSON.parse(apiLine[0])).toMatchObject({ requestId, traceparent, route: '/v2/hash', status: 200 });
  });

  it('drops an invalid traceparent but keeps the request id', async () => {
    const requestId = `bad-trace-${Date.now()}`;
    const big = 'y'.repeat(70 * 1024);
    const invalid = '00-00000000000000000000000000000000-00f067aa0ba902b7-01';
    const res = await hash(cluster.url(0), cluster.keys.production, big, { 'x-request-id': requestId, traceparent: invalid });
    expect(res.status).toBe(200);
    const workerLine = await cluster.workers[0]!.waitFor(new RegExp(`^.*"requestId":"${requestId}".*"msg":"job completed".*$`, 'm'));
    const line = JSON.parse(workerLine[0]) as Record<string, unknown>;
    expect(line.requestId).toBe(requestId);
    expect(line).not.toHaveProperty('traceparent');
  });
});
