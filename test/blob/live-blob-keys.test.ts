/**
 * "Live" for the blob sweep: the blob keys of jobs that have not finished. Distributed mode reads
 * them from BullMQ on a real Redis (waiting, prioritized, delayed, active; not completed or failed,
 * and not jobs of queues without blobs); embedded mode from the in-process queue.
 */
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileJob, JobKind, JobResults, QueueName, StreamJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { bullQueueName } from '../../shared/naming.js';
import type { BullJobData } from '../../shared/queue/bullmq-wire.js';
import { InProcessQueue } from '../../shared/queue/in-process.js';
import { BullMqLiveBlobKeys } from '../../shared/queue/live-blob-keys.js';
import type { JobHandlers } from '../../shared/queue/types.js';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { deleteKeys, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { waitFor } from '../helpers/wait.js';

const logger = createLogger('silent');
const fileJob = (key: string, filename = 'f.bin'): FileJob => ({ blob: { key, size: 1 }, filename, chunkSize: 1024, output: 'hex' });
const streamJob = (key: string): StreamJob => ({ blob: { key, size: 1 }, chunkSize: 1024, output: 'hex' });

/** Resolves when `release` is called. */
function gate(): { wait: Promise<void>; release: () => void } {
  let release: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait, release };
}

describe('BullMqLiveBlobKeys (real Redis)', () => {
  const prefix = freshPrefix();
  let redis: Redis;
  let workerRedis: Redis;
  const queues = new Map<QueueName, Queue<BullJobData, JobResults[JobKind], JobKind>>();
  let live: BullMqLiveBlobKeys;

  beforeAll(() => {
    redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
    workerRedis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
    for (const name of ['file', 'stream', 'hash'] as const) {
      queues.set(name, new Queue(bullQueueName(name), { connection: redis, prefix }));
    }
    live = new BullMqLiveBlobKeys({ redis, prefix, logger });
  });

  afterAll(async () => {
    await live.close();
    await Promise.all([...queues.values()].map((queue) => queue.close()));
    await deleteKeys(redis, prefix);
    redis.disconnect();
    workerRedis.disconnect();
  });

  const add = (queue: QueueName, data: BullJobData, options: { delay?: number; priority?: number } = {}): Promise<unknown> =>
    queues.get(queue)!.add(data.kind, data, options);
  const file = (key: string, filename?: string): BullJobData => ({ kind: 'file', accountId: 'acct', payload: fileJob(key, filename) });
  const stateOf = (id: string): Promise<string> => queues.get('file')!.getJobState(id);

  it('names the blobs of waiting, prioritized, delayed and active jobs, not of finished ones', async () => {
    const hold = gate();
    const worker = new Worker<BullJobData>(
      bullQueueName('file'),
      async (job) => {
        const { filename } = job.data.payload as FileJob;
        if (filename === 'fail') throw new UnrecoverableError('{"code":"INVALID_INPUT","message":"Invalid input"}');
        if (filename === 'hold') await hold.wait;
        return { digest: '', size: 0 };
      },
      { connection: workerRedis, prefix, concurrency: 1 },
    );
    try {
      // One at a time, in order: failed, completed, then one that stays active.
      const failed = (await queues.get('file')!.add('file', file('uploads/a/failed', 'fail'))).id!;
      const completed = (await queues.get('file')!.add('file', file('uploads/a/completed'))).id!;
      const active = (await queues.get('file')!.add('file', file('uploads/a/active', 'hold'))).id!;
      await waitFor(async () => (await stateOf(active)) === 'active', { timeoutMs: 20_000, what: 'the held job to be active' });
      expect([await stateOf(failed), await stateOf(completed)]).toEqual(['failed', 'completed']);

      await add('file', file('uploads/a/waiting'));
      await add('file', file('uploads/a/delayed'), { delay: 600_000 });
      await add('file', file('uploads/a/prioritized'), { priority: 3 });
      await add('stream', { kind: 'stream', accountId: 'acct', payload: streamJob('uploads/b/stream-waiting') });
      await add('hash', { kind: 'hash', accountId: 'acct', payload: { data: 'uploads/a/not-a-blob', encoding: 'utf8' } });

      expect([...(await live.read())].sort()).toEqual([
        'uploads/a/active',
        'uploads/a/delayed',
        'uploads/a/prioritized',
        'uploads/a/waiting',
        'uploads/b/stream-waiting',
      ]);

      hold.release();
      // The worker runs the rest; what is left live is the delayed job and the stream job nobody consumes.
      await waitFor(async () => (await live.read()).size === 2, { timeoutMs: 20_000, what: 'the file jobs to finish' });
      expect([...(await live.read())].sort()).toEqual(['uploads/a/delayed', 'uploads/b/stream-waiting']);
    } finally {
      hold.release();
      await worker.close();
    }
  });
});

describe('InProcessQueue.liveBlobKeys', () => {
  it('names the blobs of queued and running jobs until they finish', async () => {
    const hold = gate();
    const unused = (): Promise<never> => Promise.reject(new Error('not used'));
    const handlers: JobHandlers = {
      hash: () => Promise.resolve({ digest: '', size: 0 }),
      hmac: unused,
      verify: unused,
      batch: unused,
      url: unused,
      file: async () => {
        await hold.wait;
        return { digest: '', size: 0 };
      },
      stream: async () => {
        await hold.wait;
        return { digest: '', size: 0 };
      },
    };
    const queue = new InProcessQueue({
      handlers,
      blobs: new LocalDiskBlobStore('/nonexistent-blobs'),
      logger,
      concurrency: 1,
      retentionMs: 60_000,
      blobRetentionMs: 60_000,
    });
    try {
      const running = await queue.submit('file', fileJob('uploads/a/running'), { accountId: 'acct' });
      const queued = await queue.submit('stream', streamJob('uploads/a/queued'), { accountId: 'acct' });
      await queue.submit('hash', { data: 'x', encoding: 'utf8' }, { accountId: 'acct' });
      expect((await queue.get(running.id))?.state).toBe('active');
      expect((await queue.get(queued.id))?.state).toBe('queued');
      expect([...queue.liveBlobKeys()].sort()).toEqual(['uploads/a/queued', 'uploads/a/running']);

      hold.release();
      await waitFor(async () => (await queue.get(queued.id))?.state === 'completed', { timeoutMs: 20_000, what: 'the jobs to finish' });
      expect(queue.liveBlobKeys()).toEqual(new Set());
    } finally {
      hold.release();
      await queue.close();
    }
  });
});
