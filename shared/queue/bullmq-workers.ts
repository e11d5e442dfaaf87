/**
 * The consumer side of distributed mode (issue 3 §1): one BullMQ Worker per queue this process
 * serves, each running the shared handlers.
 *
 * - Two kinds of failure: a permanent ServiceError (bad input, 4xx) becomes an UnrecoverableError
 *   and fails at once; anything else is retried with exponential backoff (the job's `attempts`).
 *   Either way `failedReason` is the JSON of toJobError(err), which the producer parses back.
 * - Lock renewal: handlers hash blobs with `for await` over ≥ 1 MiB chunks, so the event loop turns
 *   between chunks and BullMQ's lock timer runs. A worker killed mid-job loses its lock; the
 *   stalled check (on by default) hands the job to another worker.
 * - When a job completes or finally fails, its id is published on the job-events channel (the
 *   producer's sync waits and onFinished listen there) and its blob is deleted.
 */
import { UnrecoverableError, Worker } from 'bullmq';
import type { BlobStore } from '../blob/types.js';
import { isServiceError } from '../errors.js';
import { blobOf, QUEUE_NAMES, type JobKind, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { bullQueueName } from '../naming.js';
import { bullPrefixOf, jobEventsChannel, type BullJob, type BullJobData, type JobFinishedMessage } from './bullmq-wire.js';
import { toJobError } from './execute.js';
import { closeRedis, createRedis } from './redis-connection.js';
import type { JobHandler, JobHandlers, WorkerPool } from './types.js';

export interface BullMqWorkersOptions {
  /** REDIS_URL. */
  connection: string;
  handlers: JobHandlers;
  blobs: BlobStore;
  queues: readonly QueueName[];
  /** Jobs run at once per queue. */
  concurrency: number;
  logger: Logger;
  /** Keep a finished job's blob this long before deleting it; 0 deletes at once. */
  blobRetentionMs: number;
  /** Namespace; must match the producer's. */
  prefix?: string;
  /** How long a job's lock lasts without renewal (default 30 s); a dead worker's job is retried after it. */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  stalledIntervalMs?: number;
  /** On close, how long active jobs may run before the workers are closed by force (default 30 s). */
  closeGraceMs?: number;
}

/** Thrown for a transient failure: BullMQ retries it; its message is the job error JSON. */
class RetryableJobError extends Error {
  override name = 'RetryableJobError';
}

export async function startBullMqWorkers(options: BullMqWorkersOptions): Promise<WorkerPool> {
  const { lockDurationMs = 30_000, stalledIntervalMs = 30_000, closeGraceMs = 30_000 } = options;
  validate(options, lockDurationMs, stalledIntervalMs, closeGraceMs);
  const { logger, prefix } = options;

  // BullMQ duplicates this connection for each worker's normal and blocking clients.
  const base = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:worker' });
  const publisher = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:worker-events' });
  const blobTimers = new Set<NodeJS.Timeout>();

  const processor = async (job: BullJob): Promise<JobResults[JobKind]> => {
    const { kind, payload } = job.data;
    const handler = options.handlers[kind] as JobHandler<JobKind> | undefined;
    try {
      if (handler === undefined) throw new UnrecoverableError(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Internal error' }));
      return await handler(payload, { jobId: job.id ?? '', blobs: options.blobs });
    } catch (err) {
      if (err instanceof UnrecoverableError) throw err;
      const info = toJobError(err);
      if (info.code === 'INTERNAL_ERROR') logger.error({ err, jobId: job.id, kind, attempt: job.attemptsMade + 1 }, 'job attempt failed');
      const wire = JSON.stringify(info);
      throw isServiceError(err) && err.isPermanent ? new UnrecoverableError(wire) : new RetryableJobError(wire, { cause: err });
    }
  };

  const finish = (job: BullJob, state: JobFinishedMessage['state']): void => {
    const message: JobFinishedMessage = { id: job.id ?? '', state };
    publisher.publish(jobEventsChannel(prefix), JSON.stringify(message)).catch((err: unknown) => {
      // Waiters poll the job's state, so a lost message only delays them.
      logger.warn({ err, jobId: job.id }, 'job-finished publish failed');
    });
    const blob = blobOf(job.data.kind, job.data.payload);
    if (blob === undefined) return;
    const remove = (): void => {
      options.blobs.delete(blob.key).catch((err: unknown) => logger.warn({ err, key: blob.key }, 'blob delete failed'));
    };
    if (options.blobRetentionMs === 0) {
      remove();
      return;
    }
    const timer = setTimeout(() => {
      blobTimers.delete(timer);
      remove();
    }, options.blobRetentionMs);
    timer.unref();
    blobTimers.add(timer);
  };

  const workers = options.queues.map((name) => {
    const worker = new Worker<BullJobData, JobResults[JobKind], JobKind>(bullQueueName(name), processor, {
      connection: base,
      prefix: bullPrefixOf(prefix),
      concurrency: options.concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: 1,
    });
    worker.on('completed', (job) => finish(job, 'completed'));
    worker.on('failed', (job) => {
      // Emitted for every failed attempt; finishedOn is set only when no retry follows.
      if (job !== undefined && typeof job.finishedOn === 'number') finish(job, 'failed');
    });
    // A job past maxStalledCount is marked for failure here and failed by the next worker to take
    // it, which emits 'failed' (finishedOn set): announced and its blob deleted like any other.
    worker.on('stalled', (jobId: string) => logger.warn({ jobId, queue: name }, 'stalled job: its worker stopped renewing the lock'));
    worker.on('error', (err) => logger.warn({ err, queue: name }, 'bullmq worker error'));
    return worker;
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const results = await Promise.allSettled(workers.map((worker) => closeGracefully(worker, closeGraceMs)));
      for (const timer of blobTimers) clearTimeout(timer);
      if (blobTimers.size > 0) logger.info({ pending: blobTimers.size }, 'blob deletions left to the object store lifecycle');
      blobTimers.clear();
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
async function closeGracefully(worker: Worker<BullJobData, JobResults[JobKind], JobKind>, graceMs: number): Promise<void> {
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

function validate(options: BullMqWorkersOptions, lockDurationMs: number, stalledIntervalMs: number, closeGraceMs: number): void {
  const queues: readonly string[] = options.queues;
  if (queues.length === 0) throw new RangeError('queues must name at least one queue');
  for (const name of queues) {
    if (!(QUEUE_NAMES as readonly string[]).includes(name)) throw new RangeError(`queues: unknown queue "${name}"; expected one of ${QUEUE_NAMES.join(', ')}`);
  }
  if (new Set(options.queues).size !== options.queues.length) throw new RangeError('queues must not repeat a queue');
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  if (!Number.isInteger(options.blobRetentionMs) || options.blobRetentionMs < 0) throw new RangeError('blobRetentionMs must be a non-negative integer');
  if (!Number.isInteger(lockDurationMs) || lockDurationMs < 1000) throw new RangeError('lockDurationMs must be an integer ≥ 1000');
  if (!Number.isInteger(stalledIntervalMs) || stalledIntervalMs < 1000) throw new RangeError('stalledIntervalMs must be an integer ≥ 1000');
  if (!Number.isInteger(closeGraceMs) || closeGraceMs < 0) throw new RangeError('closeGraceMs must be a non-negative integer');
}
