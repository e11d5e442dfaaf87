/**
 * The queue's bounds with real processes (distributed mode): a full queue answers 503 with
 * Retry-After (QUEUE_MAX_WAITING), a caller that hangs up takes its queued job with it, and a
 * job already running at SYNC_TIMEOUT answers 504 JOB_TIMEOUT and goes on — its worker is held
 * inside the job by an object store that stops answering (a TCP proxy the test holds).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullQueueName } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { sha224Hex } from '../helpers/digests.js';

describe('queue bounds with real processes', () => {
  let c: Cluster;
  let redis: Redis;
  const queues = new Map<string, Queue>();
  const extra: SpawnedProcess[] = [];
  const proxies: TcpProxy[] = [];

  beforeAll(async () => {
    // No API node and no worker yet: each test starts the ones it needs, on queues no other test uses.
    c = await startCluster({ apiNodes: 0, workers: 0 });
    redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
  }, 60_000);

  afterAll(async () => {
    for (const queue of queues.values()) await queue.close();
    await Promise.all(extra.map((p) => p.stop('SIGKILL')));
    await c.close();
    for (const proxy of proxies) await proxy.close();
    redis.disconnect();
  });

  /** The raw BullMQ queue, to look at what Redis holds. */
  const rawQueue = (name: 'hash' | 'batch' | 'file'): Queue => {
    let queue = queues.get(name);
    if (queue === undefined) {
      queue = new Queue(bullQueueName(name), { connection: redis, prefix: bullPrefixOf(c.env.QUEUE_PREFIX) });
      queues.set(name, queue);
    }
    return queue;
  };

  const post = (base: string, path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('past QUEUE_MAX_WAITING a queue answers 503 with Retry-After, async and sync alike; it accepts again once workers drain it', async () => {
    const { url } = await c.addApi({ QUEUE_MAX_WAITING: '2', INLINE_MAX_BYTES: '0' });
    const batch = { items: [{ id: 'a', data: 'abc' }] };
    let accepted = 0;
    let refused: Response | undefined;
    // The bound is read at most every 250 ms per node, so a few more may be admitted before the refusals start.
    await expect
      .poll(
        async () => {
          const res = await post(url, '/v2/batch?async=true', batch);
          if (res.status === 202) accepted++;
          else refused = res;
          return res.status;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(503);
    expect(accepted).toBeGreaterThanOrEqual(2);
    expect(await rawQueue('batch').getWaitingCount()).toBe(accepted);
    expect(refused!.headers.get('retry-after')).toBe('5');
    expect(await refused!.json()).toEqual({
      success: false,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'Service temporarily unavailable',
        details: 'the batch queue is full; retry later',
        retry_after: 5,
      },
    });
    const sync = await post(url, '/v2/batch', batch);
    expect(sync.status).toBe(503);
    expect(sync.headers.get('retry-after')).toBe('5');

    await c.addWorker(['--queues', 'batch']);
    await expect.poll(async () => (await post(url, '/v2/batch?async=true', batch)).status, { timeout: 15_000, interval: 100 }).toBe(202);
  }, 60_000);

  it('a caller that hangs up while its job is queued takes the job with it', async () => {
    // No worker serves the hash queue in this file: the job waits until its caller leaves.
    const { url } = await c.addApi({ INLINE_MAX_BYTES: '0', SYNC_TIMEOUT: '60' });
    const request = http.request(`${url}/v2/hash`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
    });
    request.on('error', () => undefined);
    request.end(JSON.stringify({ data: 'nobody waits for me' }));
    const hash = rawQueue('hash');
    await expect.poll(() => hash.getWaitingCount(), { timeout: 10_000, interval: 50 }).toBe(1);
    const [waiting] = await hash.getWaiting();
    request.destroy();
    await expect.poll(() => hash.getWaitingCount(), { timeout: 10_000, interval: 50 }).toBe(0);
    expect(await hash.getJob(waiting!.id!)).toBeUndefined();
    // The node deletes the job's owner key right after removing the job: a moment later, not at once.
    await expect.poll(() => redis.exists(`${c.env.QUEUE_PREFIX}:sha224d:job:${waiting!.id!}`), { timeout: 10_000, interval: 50 }).toBe(0);
  }, 60_000);

  it('a job already running at SYNC_TIMEOUT answers 504 JOB_TIMEOUT with its id; it goes on and its result is fetched later', async () => {
    const s3 = new URL(c.env.S3_ENDPOINT!);
    const proxy = await startTcpProxy({ host: s3.hostname, port: Number(s3.port) });
    proxies.push(proxy);
    // This worker reaches the object store through the proxy; the API node stores uploads directly.
    const worker = spawnEntry('worker', { ...c.env, S3_ENDPOINT: proxy.url }, ['--queues', 'file']);
    extra.push(worker);
    await worker.waitFor(/worker ready/);
    await proxy.setMode('hold');
    // Uploads go through the store and the queue, not hashed as they arrive.
    const { url } = await c.addApi({
      SYNC_TIMEOUT: '3',
      JOB_BACKOFF_MS: '100',
      JOB_BACKOFF_MAX_MS: '500',
      HASH_UPLOADS_WHILE_RECEIVING: 'false',
    });

    const bytes = randomBytes(64 * 1024);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'held.bin');
    const res = await fetch(`${url}/v2/file`, { method: 'POST', headers: { 'x-api-key': c.keys.production }, body: form });
    expect(res.status).toBe(504);
    const { error } = (await res.json()) as { error: { code: string; job_id: string; details: string } };
    expect(error.code).toBe('JOB_TIMEOUT');
    expect(error.job_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.details).toBe(`job ${error.job_id} did not finish within 3000 ms; GET /v2/jobs/${error.job_id} for its result`);
    expect(await rawQueue('file').getJobState(error.job_id)).toBe('active');

    // The held reads fail at once, the job is retried, and the store answers again.
    await proxy.setMode('closed');
    await proxy.setMode('forward');
    const view = async () =>
      (await (await fetch(`${url}/v2/jobs/${error.job_id}`, { headers: { 'x-api-key': c.keys.production } })).json()) as Record<
        string,
        unknown
      >;
    await expect.poll(async () => (await view()).status, { timeout: 30_000, interval: 200 }).toBe('completed');
    expect(await view()).toMatchObject({
      success: true,
      job_id: error.job_id,
      status: 'completed',
      hash: sha224Hex(bytes),
      size: bytes.length,
    });
  }, 90_000);
});
