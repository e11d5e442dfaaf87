/**
 * Distributed mode as real processes: inline and queue paths answer identically, any
 * API node serves any job, sync waits are bounded (a job no worker took: 503, cancelled), probes,
 * and graceful shutdown of API nodes and workers.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullQueueName } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { waitFor } from '../helpers/wait.js';

function strip(body: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _t, processing_time_ms: _p, ...rest } = body;
  return rest;
}

/** A GET on a connection of its own, closed after the answer (no keep-alive pool). */
function getOnce(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('distributed cluster (2 API nodes, 2 workers, Redis, PostgreSQL, s3rver)', () => {
  let c: Cluster;
  let queueOnly: string;
  beforeAll(async () => {
    // The default workers leave the stream queue alone, so the shutdown tests know which worker runs a stream job.
    // Synchronous uploads through the blob store and the workers (not hashed while receiving, the
    // default): the drain tests below need a stream job a worker is running.
    c = await startCluster({
      apiNodes: 2,
      workers: 2,
      workerArgs: ['--queues', 'hash,batch,file,url'],
      env: { HASH_UPLOADS_WHILE_RECEIVING: 'false' },
    });
    queueOnly = (await c.addApi({ INLINE_MAX_BYTES: '0' })).url;
  }, 60_000);
  afterAll(() => c.close());

  const post = async (base: string, path: string, body: unknown, key = c.keys.production) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('the inline path and the queue path give identical responses, errors included', async () => {
    const cases: Array<[string, unknown]> = [
      ['/v2/hash', { data: 'abc' }],
      ['/v2/hash', { data: '00ff', encoding: 'hex', output: 'binary' }],
      ['/v2/hash', { data: 'zz', encoding: 'hex' }],
      ['/v2/verify', { data: 'abc', hash: sha224Hex('abc').toUpperCase() }],
      ['/v2/hmac', { data: 'm', key: '0b0b', key_encoding: 'hex', output: 'base64' }],
      [
        '/v2/batch',
        {
          items: [
            { id: 'x', data: 'YWJj' },
            { id: 'y', data: '' },
          ],
          encoding: 'base64',
        },
      ],
      [
        '/v2/batch',
        {
          items: [
            { id: 'x', data: 'YWJj' },
            { id: 'y', data: '!!' },
          ],
          encoding: 'base64',
        },
      ],
    ];
    for (const [path, body] of cases) {
      const inline = await post(c.url(0), path, body);
      const queued = await post(queueOnly, path, body);
      expect(queued.status, path).toBe(inline.status);
      expect(strip(queued.body), path).toEqual(strip(inline.body));
    }
    expect((await post(queueOnly, '/v2/hash', { data: 'abc' })).body.hash).toBe(sha224Hex('abc'));
  });

  it('requests of one moment, bundled on the queue path, answer as the inline path does, errors included', async () => {
    const cases: Array<[string, unknown]> = [
      ['/v2/hash', { data: 'abc' }],
      ['/v2/hash', { data: '00ff', encoding: 'hex', output: 'base64' }],
      ['/v2/hash', { data: 'zz', encoding: 'hex' }],
      ['/v2/verify', { data: 'abc', hash: sha224Hex('abc') }],
      ['/v2/verify', { data: 'abc', hash: sha224Hex('abd') }],
      ['/v2/hmac', { data: 'm', key: '0b0b', key_encoding: 'hex', output: 'base64' }],
      ['/v2/hmac', { data: 'm', key: 'not hex', key_encoding: 'hex' }],
    ];
    // Three copies of every case at once, so the queue node's bundles mix kinds, successes and errors.
    const all = [...cases, ...cases, ...cases];
    const inline = await Promise.all(all.map(([path, body]) => post(c.url(0), path, body)));
    const queued = await Promise.all(all.map(([path, body]) => post(queueOnly, path, body)));
    all.forEach(([path], i) => {
      expect(queued[i]!.status, path).toBe(inline[i]!.status);
      expect(strip(queued[i]!.body), path).toEqual(strip(inline[i]!.body));
    });
    expect(queued.map((r) => r.status)).toEqual(expect.arrayContaining([200, 400]));
  });

  it('an async file job submitted to node A is read from node B', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const form = fileForm(bytes, { filename: 'x.bin' });
    const res = await fetch(`${c.url(0)}/v2/file?async=true`, { method: 'POST', headers: { 'x-api-key': c.keys.production }, body: form });
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    const job = await waitFor(
      async () => {
        const polled = (await (
          await fetch(`${c.url(1)}/v2/jobs/${job_id}`, { headers: { 'x-api-key': c.keys.read_only } })
        ).json()) as Record<string, unknown>;
        return polled.status === 'completed' && polled;
      },
      { intervalMs: 25, what: 'the job to complete' },
    );
    expect(job).toMatchObject({
      success: true,
      job_id,
      status: 'completed',
      hash: sha224Hex(bytes),
      size: bytes.length,
      filename: 'x.bin',
    });
  });

  it('a sync upload whose job no worker takes within SYNC_TIMEOUT answers 503 with Retry-After; its job and bytes are gone', async () => {
    // No worker serves the stream queue yet (the shutdown tests below add one). A job already
    // running at the deadline answers 504 and goes on instead: test/e2e/queue-bounds.test.ts.
    const impatient = (await c.addApi({ SYNC_TIMEOUT: '0.5' })).url;
    const before = c.storedObjects();
    const res = await fetch(`${impatient}/v2/stream`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(randomBytes(4096)),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      success: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'Service temporarily unavailable',
        details: 'no worker took the job within 500 ms; it was cancelled — retry later',
        retry_after: 5,
      },
    });
    await expect.poll(() => c.storedObjects().filter((object) => !before.includes(object)), { timeout: 5000 }).toEqual([]);
    const redis = new Redis(SHARED_REDIS_URL);
    const stream = new Queue(bullQueueName('stream'), { connection: redis, prefix: bullPrefixOf(c.env.QUEUE_PREFIX) });
    try {
      expect(await stream.getJobCounts('wait', 'delayed', 'active', 'completed', 'failed')).toEqual({
        wait: 0,
        delayed: 0,
        active: 0,
        completed: 0,
        failed: 0,
      });
    } finally {
      await stream.close();
      redis.disconnect();
    }
  });

  it('/healthz and /readyz answer without credentials', async () => {
    expect(await (await fetch(`${c.url(1)}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${c.url(1)}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', queue: 'ok', blobs: 'ok' } });
  });

  it('SIGTERM on an API node finishes the in-flight upload, then the node exits 0', async () => {
    const metricsToken = 'cluster-test-metrics-token';
    const node = await c.addApi({ METRICS_TOKEN: metricsToken, LOG_LEVEL: 'info' });
    const streamWorker = await c.addWorker(['--queues', 'stream']);
    const bytes = randomBytes(8 * 1024 * 1024);
    let req: http.ClientRequest | undefined;
    const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = http.request(
        `${node.url}/v2/stream`,
        { method: 'POST', headers: { 'x-api-key': c.keys.production, 'content-type': 'application/octet-stream' } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
    });
    // Send half; once the node has the upload in flight (its gauge counts it beside the scrape
    // asking), signal it; once it logs that it is shutting down (it stops listening in the same
    // step), send the rest. Nothing else is sent to it after the signal, and the scrapes close
    // their connections, so the upload is the only request the shutdown meets.
    req!.write(bytes.subarray(0, bytes.length / 2));
    const inFlight = async (): Promise<number> => {
      const text = (await getOnce(`${node.url}/metrics`, { authorization: `Bearer ${metricsToken}` })).body;
      return Number(/^sha224d_http_requests_in_flight (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    await waitFor(async () => (await inFlight()) >= 2, { what: 'the node to receive the upload' });
    node.proc.child.kill('SIGTERM');
    await node.proc.waitFor(/"msg":"shutting down"/);
    req!.end(bytes.subarray(bytes.length / 2));
    const result = await done;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ hash: sha224Hex(bytes), size: bytes.length });
    expect(await node.proc.exited).toBe(0);
    await expect(fetch(`${node.url}/healthz`)).rejects.toThrow();
    streamWorker.child.kill('SIGTERM');
    expect(await streamWorker.exited).toBe(0);
  });

  it('SIGTERM on a worker lets its active job finish, then the worker exits 0', async () => {
    const worker = await c.addWorker(['--queues', 'stream']); // the only stream consumer
    const queue = new Queue(bullQueueName('stream'), {
      connection: new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null }),
      prefix: bullPrefixOf(c.env.QUEUE_PREFIX),
    });
    const bytes = randomBytes(30 * 1024 * 1024);
    const pending = fetch(`${c.url(0)}/v2/stream`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    await waitFor(async () => (await queue.getActiveCount()) > 0, { intervalMs: 5, what: 'the stream job to start' });
    expect(await queue.getActiveCount()).toBe(1);
    await queue.close();
    worker.child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { hash: string }).hash).toBe(sha224Hex(bytes));
    expect(await worker.exited).toBe(0);
  });
});
