/**
 * Faults with real processes: a worker killed with SIGKILL mid-job, workers killed
 * and restarted under 500 async jobs, Redis stopped and restarted, S3 unreachable.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { bullQueueName } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { pickUnusedPort } from '../helpers/ports.js';
import { stallFor, waitFor } from '../helpers/wait.js';
import { SHARED_REDIS_URL, startPrivateRedis, startRedisServer, stopRedisServer } from '../queue/redis-helpers.js';

const FAST_RECOVERY = { WORKER_LOCK_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000', SYNC_TIMEOUT: '60' };

/**
 * Synchronous uploads through the blob store and a worker, as async ones always go: these tests
 * are about that path's faults. By default a synchronous upload is hashed on the API node as it
 * arrives and touches neither (HASH_UPLOADS_WHILE_RECEIVING).
 */
const UPLOADS_QUEUED = { HASH_UPLOADS_WHILE_RECEIVING: 'false' };

describe('faults', () => {
  let cluster: Cluster | undefined;
  let privateRedis: ChildProcess | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
    privateRedis?.kill('SIGKILL');
    privateRedis = undefined;
  });

  it('(a) a worker killed with SIGKILL in the middle of a 50 MB file job: another worker completes it and the client gets the right hash', async () => {
    cluster = await startCluster({
      apiNodes: 1,
      workers: 1,
      env: { ...FAST_RECOVERY, ...UPLOADS_QUEUED },
      workerArgs: ['--queues', 'file'],
    });
    const c = cluster;
    const queue = new Queue(bullQueueName('file'), {
      connection: new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null }),
      prefix: bullPrefixOf(c.env.QUEUE_PREFIX),
    });
    try {
      // The kill must land while the job is active; if the job outran the poll, try a fresh one.
      let killedMidJob = false;
      for (let attempt = 0; attempt < 3 && !killedMidJob; attempt++) {
        const worker = c.workers.at(-1)!;
        const completedBefore = await queue.getCompletedCount();
        const bytes = randomBytes(50 * 1024 * 1024);
        const response = fetch(`${c.url(0)}/v2/file`, {
          method: 'POST',
          headers: { 'x-api-key': c.keys.production },
          body: fileForm(bytes, { filename: 'big.bin' }),
        });
        await waitFor(async () => (await queue.getActiveCount()) === 1 || (await queue.getCompletedCount()) > completedBefore, {
          timeoutMs: 30_000,
          intervalMs: 5,
          what: 'the file job to start',
        });
        await worker.stop('SIGKILL');
        killedMidJob = (await queue.getActiveCount()) === 1 && (await queue.getCompletedCount()) === completedBefore;
        await c.addWorker(['--queues', 'file']);
        const res = await response;
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ success: true, hash: sha224Hex(bytes), size: bytes.length });
      }
      expect(killedMidJob).toBe(true);
    } finally {
      await queue.close();
    }
  }, 180_000);

  it('(b) 500 async jobs while workers are killed and restarted: all complete with correct hashes', async () => {
    cluster = await startCluster({ apiNodes: 2, workers: 2, env: FAST_RECOVERY, workerArgs: ['--queues', 'batch', '--concurrency', '4'] });
    const c = cluster;
    let stopChaos = false;
    const chaos = (async () => {
      for (let round = 0; !stopChaos && round < 20; round++) {
        await stallFor(250); // the input: a worker is killed every 250 ms while jobs arrive
        const victim = c.workers.find((w) => w.child.exitCode === null && w.child.signalCode === null);
        if (victim) await victim.stop('SIGKILL');
        await c.addWorker(['--queues', 'batch', '--concurrency', '4']);
      }
    })();
    const inputs = Array.from({ length: 500 }, (_, i) => `job ${i} ${randomBytes(8).toString('hex')}`);
    const ids: string[] = [];
    for (let i = 0; i < inputs.length; i += 25) {
      const chunk = await Promise.all(
        inputs.slice(i, i + 25).map(async (data, j) => {
          const res = await fetch(`${c.url((i + j) % 2)}/v2/batch?async=true`, {
            method: 'POST',
            headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
            body: JSON.stringify({ items: [{ id: String(i + j), data }] }),
          });
          expect(res.status).toBe(202);
          return ((await res.json()) as { job_id: string }).job_id;
        }),
      );
      ids.push(...chunk);
    }
    stopChaos = true;
    await chaos;
    await c.addWorker(['--queues', 'batch', '--concurrency', '4']);
    const results = new Map<string, { status: string; results?: Array<{ id: string; hash: string }> }>();
    await waitFor(
      async () => {
        const pending = ids.filter((id) => results.get(id)?.status !== 'completed');
        await Promise.all(
          pending.slice(0, 100).map(async (id) => {
            const res = await fetch(`${c.url(0)}/v2/jobs/${id}`, { headers: { 'x-api-key': c.keys.production } });
            results.set(id, (await res.json()) as { status: string });
          }),
        );
        return ids.every((id) => results.get(id)?.status === 'completed');
      },
      { timeoutMs: 90_000, intervalMs: 200, what: 'all 500 jobs to complete' },
    );
    ids.forEach((id, i) => {
      expect(results.get(id)?.results).toEqual([{ id: String(i), hash: sha224Hex(inputs[i]!) }]);
    });
  }, 180_000);

  it('(c) Redis stopped: 503 SERVICE_UNAVAILABLE within 2 s, and serving again within 5 s of its return', async () => {
    const redis = await startPrivateRedis();
    privateRedis = redis.child;
    cluster = await startCluster({ apiNodes: 1, workers: 1, redisUrl: redis.url });
    const c = cluster;
    const hash = () =>
      fetch(`${c.url(0)}/v2/hash`, {
        method: 'POST',
        headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
        body: '{"data":"abc"}',
        signal: AbortSignal.timeout(10_000),
      });
    expect((await hash()).status).toBe(200);

    await stopRedisServer(privateRedis);
    // A request that reaches the node before it has read the closed connection needs no Redis (a
    // small input is hashed inline, the day count is batched) and may still be answered 200.
    const stopped = Date.now();
    await waitFor(async () => (await hash()).status === 503, { timeoutMs: 2000, intervalMs: 20, what: 'the API to answer 503' });
    expect(Date.now() - stopped).toBeLessThan(2000);
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const res = await hash();
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
      expect(Date.now() - t0).toBeLessThan(2000);
    }
    const ready = await fetch(`${c.url(0)}/readyz`);
    expect(ready.status).toBe(503);

    privateRedis = await startRedisServer(redis.port);
    const back = Date.now();
    await waitFor(async () => (await hash()).status === 200, { timeoutMs: 5000, intervalMs: 100, what: 'the API to serve again' });
    expect(Date.now() - back).toBeLessThan(5000);
    const file = await fetch(`${c.url(0)}/v2/file`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production },
      body: fileForm('after redis came back', { filename: 'big.bin' }),
    });
    expect(((await file.json()) as { hash: string }).hash).toBe(sha224Hex('after redis came back'));
  }, 60_000);

  it('(d) S3 unreachable: 503 SERVICE_UNAVAILABLE and no partial result', async () => {
    const closedPort = await pickUnusedPort();
    cluster = await startCluster({ apiNodes: 1, workers: 1, env: UPLOADS_QUEUED, s3Endpoint: `http://127.0.0.1:${closedPort}` });
    const c = cluster;
    const t0 = Date.now();
    const res = await fetch(`${c.url(0)}/v2/file`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production },
      body: fileForm(randomBytes(200_000), { filename: 'big.bin' }),
    });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { success: boolean; error: { code: string }; hash?: string };
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.hash).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(5000);
    const stream = await fetch(`${c.url(0)}/v2/stream`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/octet-stream' },
      body: randomBytes(10_000),
    });
    expect(stream.status).toBe(503);
    // Every upload the outage refuses says when to come back: async ones, v2 and v1 alike.
    const bearer = { authorization: `Bearer ${c.keys.production}` };
    const refused = [
      await fetch(`${c.url(0)}/v2/file?async=true`, { method: 'POST', headers: bearer, body: fileForm('async', { filename: 'a.bin' }) }),
      await fetch(`${c.url(0)}/v2/stream?async=true`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/octet-stream' },
        body: randomBytes(10_000),
      }),
      await fetch(`${c.url(0)}/v1/file/hash`, { method: 'POST', headers: bearer, body: fileForm('v1 a', { filename: 'a.bin' }) }),
      await fetch(`${c.url(0)}/v1/hash/file`, { method: 'POST', headers: bearer, body: fileForm('v1 b', { filename: 'b.bin' }) }),
    ];
    for (const r of [res, stream, ...refused]) {
      expect([r.url, r.status, r.headers.get('retry-after')]).toEqual([r.url, 503, '5']);
    }
    expect((await refused[0]!.json()) as unknown).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE', retry_after: 5 } });
    expect((await refused[2]!.json()) as unknown).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', details: { retry_after: 5 } } });
    const ready = await fetch(`${c.url(0)}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.blobs).toBe('failed');
    // Small JSON requests never touch S3 and keep working.
    const hash = await fetch(`${c.url(0)}/v2/hash`, {
      method: 'POST',
      headers: { 'x-api-key': c.keys.production, 'content-type': 'application/json' },
      body: '{"data":"abc"}',
    });
    expect(hash.status).toBe(200);
  }, 60_000);
});
