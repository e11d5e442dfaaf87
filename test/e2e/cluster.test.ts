/**
 * Distributed mode as real processes (issue 3): inline and queue paths answer identically, any
 * API node serves any job, sync waits are bounded (504 JOB_TIMEOUT, result fetched later), probes,
 * and graceful shutdown of API nodes and workers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullQueueName } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';

const sha224Hex = (b: Buffer | string) => createHash('sha224').update(b).digest('hex');

function strip(body: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _t, processing_time_ms: _p, ...rest } = body;
  return rest;
}

describe('distributed cluster (2 API nodes, 2 workers, Redis, PostgreSQL, s3rver)', () => {
  let c: Cluster;
  let queueOnly: string;
  beforeAll(async () => {
    // The default workers leave the stream queue alone, so the shutdown tests know which worker runs a stream job.
    c = await startCluster({ apiNodes: 2, workers: 2, workerArgs: ['--queues', 'hash,batch,file,url'] });
    queueOnly = (await c.addApi({ INLINE_MAX_BYTES: '0' })).url;
  }, 60_000);
  afterAll(() => c.close());

  const post = async (base: string, path: string, body: unknown, key = c.keys.production) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('the inline path and the queue path give identical responses, errors included', async () => {
    const cases: Array<[string, unknown]> = [
      ['/v2/hash', { data: 'abc' }],
      ['/v2/hash', { data: '00ff', encoding: 'hex', output: 'binary' }],
      ['/v2/hash', { data: 'zz', encoding: 'hex' }],
      ['/v2/verify', { data: 'abc', hash: sha224Hex('abc').toUpperCase() }],
      ['/v2/hmac', { data: 'm', key: '0b0b', key_encoding: 'hex', output: 'base64' }],
      ['/v2/batch', { items: [{ id: 'x', data: 'YWJj' }, { id: 'y', data: '' }], encoding: 'base64' }],
      ['/v2/batch', { items: [{ id: 'x', data: 'YWJj' }, { id: 'y', data: '!!' }], encoding: 'base64' }],
    ];
    for (const [path, body] of cases) {
      const inline = await post(c.url(0), path, body);
      const queued = await post(queueOnly, path, body);
      expect(queued.status, path).toBe(inline.status);
      expect(strip(queued.body), path).toEqual(strip(inline.body));
    }
    expect((await post(queueOnly, '/v2/hash', { data: 'abc' })).body.hash).toBe(sha224Hex('abc'));
  });

  it('an async file job submitted to node A is read from node B', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'x.bin');
    const res = await fetch(`${c.url(0)}/v2/file?async=true`, { method: 'POST', headers: { 'x-api-key': c.keys.production }, body: form });
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    let job: Record<string, unknown> = {};
    for (let i = 0; i < 200 && job.status !== 'completed'; i++) {
      job = (await (await fetch(`${c.url(1)}/v2/jobs/${job_id}`, { headers: { 'x-api-key': c.keys.read_only } })).json()) as Record<string, unknown>;
      if (job.status !== 'completed') await sleep(25);
    }
    expect(job).toMatchObject({ success: true, job_id, status: 'completed', hash: sha224Hex(bytes), size: bytes.length, filename: 'x.bin' });
  });

  it('a sync wait past SYNC_TIMEOUT answers 504 JOB_TIMEOUT with the job id; the result is fetched later', async () => {
    // 1 ms is shorter than any queue round trip.
    const impatient = (await c.addApi({ SYNC_TIMEOUT: '0.001', INLINE_MAX_BYTES: '0' })).url;
    const res = await post(impatient, '/v2/hash', { data: 'waited' });
    expect(res.status).toBe(504);
    const error = res.body.error as { code: string; job_id: string };
    expect(error.code).toBe('JOB_TIMEOUT');
    expect(error.job_id).toMatch(/^[0-9a-f-]{36}$/);
    // The job itself finishes on a worker and is readable afterwards.
    let job: Record<string, unknown> = {};
    for (let i = 0; i < 100 && job.status !== 'completed'; i++) {
      job = (await (await fetch(`${impatient}/v2/jobs/${error.job_id}`, { headers: { 'x-api-key': c.keys.production } })).json()) as Record<string, unknown>;
      if (job.status !== 'completed') await sleep(20);
    }
    expect(job).toMatchObject({ status: 'completed', digest: sha224Hex('waited') });
  });

  it('/healthz and /readyz answer without credentials', async () => {
    expect(await (await fetch(`${c.url(1)}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${c.url(1)}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', queue: 'ok', blobs: 'ok' } });
  });

  it('SIGTERM on an API node finishes the in-flight upload, then the node exits 0', async () => {
    const node = await c.addApi();
    const streamWorker = await c.addWorker(['--queues', 'stream']);
    const bytes = randomBytes(8 * 1024 * 1024);
    const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${node.url}/v2/stream`, { method: 'POST', headers: { 'x-api-key': c.keys.production, 'content-type': 'application/octet-stream' } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      // Send half, signal the node, then send the rest slowly.
      req.write(bytes.subarray(0, bytes.length / 2));
      void (async () => {
        await sleep(200);
        node.proc.child.kill('SIGTERM');
        await sleep(300);
        req.end(bytes.subarray(bytes.length / 2));
      })();
    });
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
    const queue = new Queue(bullQueueName('stream'), { connection: new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null }), prefix: bullPrefixOf(c.env.QUEUE_PREFIX) });
    const bytes = randomBytes(30 * 1024 * 1024);
    const pending = fetch(`${c.url(0)}/v2/stream`, { method: 'POST', headers: { 'x-api-key': c.keys.production, 'content-type': 'application/octet-stream' }, body: bytes });
    for (let i = 0; i < 2000 && (await queue.getActiveCount()) === 0; i++) await sleep(5);
    expect(await queue.getActiveCount()).toBe(1);
    await queue.close();
    worker.child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { hash: string }).hash).toBe(sha224Hex(bytes));
    expect(await worker.exited).toBe(0);
  });
});
