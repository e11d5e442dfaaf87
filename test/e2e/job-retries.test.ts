/**
 * The queue's retry policy with real processes: a job survives two SIGKILLed workers, and queued
 * uploads survive an S3 outage longer than the former 15 s retry budget (JOB_* settings).
 * S3 is reached through a TCP proxy the test holds or closes.
 */
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { bullQueueName } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';

/** Dead workers are noticed within ~3 s (lock 2 s, checked every second). */
const FAST_RECOVERY = { WORKER_LOCK_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000' };
/** The old policy's budget: 5 attempts, waits 1+2+4+8 s. */
const OLD_BUDGET_MS = 15_000;

interface JobView {
  status: string;
  hash?: string;
  size?: number;
  error?: { code: string };
}

describe('job retries with real processes', () => {
  let cluster: Cluster | undefined;
  let proxy: TcpProxy | undefined;
  let queue: Queue | undefined;
  afterEach(async () => {
    await queue?.close();
    queue = undefined;
    await cluster?.close();
    cluster = undefined;
    await proxy?.close();
    proxy = undefined;
  });

  async function start(env: Record<string, string>): Promise<{ c: Cluster; p: TcpProxy; q: Queue }> {
    cluster = await startCluster({
      apiNodes: 1,
      workers: 0,
      env,
      workerArgs: ['--queues', 'file'],
      s3Via: async (endpoint) => {
        const { hostname, port } = new URL(endpoint);
        proxy = await startTcpProxy({ host: hostname, port: Number(port) });
        return proxy.url;
      },
    });
    queue = new Queue(bullQueueName('file'), {
      connection: new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null }),
      prefix: bullPrefixOf(cluster.env.QUEUE_PREFIX),
    });
    return { c: cluster, p: proxy!, q: queue };
  }

  /** An async file job, accepted (its bytes in S3) while no worker runs. */
  async function queueFileJob(c: Cluster, bytes: Buffer): Promise<string> {
    const form = fileForm(bytes, { filename: 'payload.bin' });
    const res = await fetch(`${c.url(0)}/v2/file?async=true`, { method: 'POST', headers: { 'x-api-key': c.keys.production }, body: form });
    expect(res.status).toBe(202);
    return ((await res.json()) as { job_id: string }).job_id;
  }

  const view = async (c: Cluster, id: string): Promise<JobView> =>
    (await (await fetch(`${c.url(0)}/v2/jobs/${id}`, { headers: { 'x-api-key': c.keys.production } })).json()) as JobView;

  it('a worker SIGKILLed mid-job twice: a third worker completes the job with the right hash (default JOB_MAX_STALLED_COUNT)', async () => {
    const { c, p, q } = await start(FAST_RECOVERY);
    const bytes = randomBytes(3 * 1024 * 1024);
    const id = await queueFileJob(c, bytes);
    // S3 answers nothing: a worker that takes the job stays inside it, reading, until it is killed.
    await p.setMode('hold');
    for (let kill = 1; kill <= 2; kill++) {
      const held = p.accepted();
      const worker = await c.addWorker();
      await expect
        .poll(
          async () => ({ started: (await q.getJob(id))?.attemptsStarted, state: await q.getJobState(id), reading: p.accepted() > held }),
          {
            timeout: 15_000,
            interval: 100,
          },
        )
        .toEqual({ started: kill, state: 'active', reading: true });
      await worker.stop('SIGKILL');
    }
    await p.setMode('forward');
    await c.addWorker();
    await expect.poll(async () => (await view(c, id)).status, { timeout: 20_000, interval: 200 }).toBe('completed');
    expect(await view(c, id)).toMatchObject({ status: 'completed', hash: sha224Hex(bytes), size: bytes.length });
    const job = await q.getJob(id);
    // Taken over twice: the former limit (1) would have failed it with INTERNAL_ERROR.
    expect(job?.stalledCounter).toBe(2);
    expect(job?.attemptsStarted).toBe(3);
  }, 90_000);

  it('S3 down longer than the former 15 s retry budget: the queued job completes once S3 returns', async () => {
    const { c, p, q } = await start({ ...FAST_RECOVERY, JOB_ATTEMPTS: '100', JOB_BACKOFF_MS: '250', JOB_BACKOFF_MAX_MS: '1000' });
    const bytes = randomBytes(256 * 1024);
    const id = await queueFileJob(c, bytes);
    await p.setMode('closed');
    const down = Date.now();
    await c.addWorker();
    // Throughout the outage the job keeps failing its attempts (SERVICE_UNAVAILABLE) and is never given up.
    await expect
      .poll(
        async () => {
          const state = await q.getJobState(id);
          if (state === 'failed' || state === 'completed') return `${state} during the outage`;
          return Date.now() - down > OLD_BUDGET_MS + 2000 ? 'outlasted' : 'waiting';
        },
        { timeout: 40_000, interval: 250 },
      )
      .toBe('outlasted');
    const during = await q.getJob(id);
    expect(during?.attemptsMade).toBeGreaterThan(5);
    expect(JSON.parse(during?.failedReason ?? '{}')).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

    await p.setMode('forward');
    const back = Date.now();
    await expect.poll(async () => (await view(c, id)).status, { timeout: 10_000, interval: 100 }).toBe('completed');
    // The cap (1 s here) bounds how long a returning S3 goes unnoticed.
    expect(Date.now() - back).toBeLessThan(5000);
    expect(await view(c, id)).toMatchObject({ status: 'completed', hash: sha224Hex(bytes), size: bytes.length });
  }, 90_000);
});
