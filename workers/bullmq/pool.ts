/**
 * The consumer side of distributed mode: one BullMQ Worker per queue this process serves, each
 * running the shared handlers (processors.ts), announcing what finishes (finisher.ts).
 *
 * Lock renewal: handlers hash blobs with `for await` over ≥ 1 MiB chunks, so the event loop turns
 * between chunks and BullMQ's lock timer runs. A worker killed mid-job loses its lock; the stalled
 * check (on by default) hands the job to another worker, up to `maxStalledCount` times.
 */
import { Worker } from 'bullmq';
import { bullQueueName } from '../../shared/naming.js';
import { processMetrics } from '../../shared/metrics/catalogue.js';
import { jobRecorder } from '../../shared/metrics/record.js';
import { bullPrefixOf, type BullData } from '../../shared/queue/bullmq-wire.js';
import { closeRedis, createRedis } from '../../shared/queue/redis-connection.js';
import { cappedBackoffDelay, DEFAULT_RETRY_POLICY } from '../../shared/queue/retry-policy.js';
import type { WorkerPool } from '../../shared/queue/types.js';
import { JobFinisher } from './finisher.js';
import { timingsOf, type BullMqWorkersOptions } from './options.js';
import { createDispatch } from './processors.js';

export type { BullMqWorkersOptions } from './options.js';

export async function startBullMqWorkers(options: BullMqWorkersOptions): Promise<WorkerPool> {
  const { lockDurationMs, stalledIntervalMs, closeGraceMs, backoffMaxMs, maxStalledCount } = timingsOf(options);
  const { logger, prefix } = options;

  // BullMQ duplicates this connection for each worker's normal and blocking clients.
  const base = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:worker' });
  const publisher = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:worker-events' });
  const finisher = new JobFinisher({
    publisher,
    blobs: options.blobs,
    logger,
    prefix,
    blobRetentionMs: options.blobRetentionMs,
    ...(options.onJobFinished === undefined ? {} : { onJobFinished: options.onJobFinished }),
  });
  const dispatch = createDispatch({
    handlers: options.handlers,
    blobs: options.blobs,
    logger,
    jobs: jobRecorder(options.metrics ?? processMetrics()),
    announceBundle: (job, message) => finisher.announceBundle(job, message),
  });

  const workers = options.queues.map((name) => {
    const worker = new Worker<BullData, unknown, string>(bullQueueName(name), dispatch, {
      connection: base,
      prefix: bullPrefixOf(prefix),
      concurrency: options.concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount,
      // Jobs carry the exponential base (set by the producer); the cap is the workers' setting.
      settings: { backoffStrategy: (attemptsMade, _type, _err, job) => cappedBackoffDelay(attemptsMade, baseDelayOf(job), backoffMaxMs) },
    });
    worker.on('completed', (job) => finisher.finish(job, 'completed'));
    worker.on('failed', (job) => {
      // Emitted for every failed attempt; finishedOn is set only when no retry follows.
      if (job !== undefined && typeof job.finishedOn === 'number') finisher.finish(job, 'failed');
    });
    // A job past maxStalledCount (JOB_MAX_STALLED_COUNT) is marked for failure here and failed by the next worker to take
    // it, which emits 'failed' (finishedOn set): announced and its blob deleted like any other.
    worker.on('stalled', (jobId: string) => logger.warn({ jobId, queue: name }, 'stalled job: its worker stopped renewing the lock'));
    worker.on('error', (err) => logger.warn({ err, queue: name }, 'bullmq worker error'));
    return worker;
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const results = await Promise.allSettled(workers.map((worker) => closeGracefully(worker, closeGraceMs)));
      const pending = finisher.close();
      if (pending > 0) logger.info({ pending }, 'blob deletions left to the object store lifecycle');
      results.push(...(await Promise.allSettled([closeRedis(publisher), closeRedis(base)])));
      for (const result of results) {
        if (result.status === 'rejected') logger.warn({ err: result.reason as unknown }, 'worker close step failed');
      }
    })();
    return closing;
  };

  try {
    await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  } catch (err) {
    await close();
    throw err;
  }
  logger.info({ queues: options.queues, concurrency: options.concurrency }, 'bullmq workers started');
  return { close };
}

/** Let active jobs finish for up to `graceMs`, then close by force (their locks lapse; the jobs are retried). */
async function closeGracefully(worker: Worker<BullData, unknown, string>, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), graceMs);
  });
  try {
    const outcome = await Promise.race([worker.close().then(() => 'closed' as const), expired]);
    if (outcome === 'expired') await worker.close(true);
  } finally {
    clearTimeout(timer);
  }
}

/** The base delay the producer stamped on the job (cappedBackoff), or the default for a job without one. */
function baseDelayOf(job: { opts: { backoff?: number | { delay?: number } } } | undefined): number {
  const backoff = job?.opts.backoff;
  const delay = typeof backoff === 'number' ? backoff : backoff?.delay;
  return typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : DEFAULT_RETRY_POLICY.backoffMs;
}
