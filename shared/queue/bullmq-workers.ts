/**
 * The consumer side of distributed mode: one BullMQ Worker per queue this process
 * serves, each running the shared handlers.
 *
 * - Two kinds of failure, decided by the error catalog's `retryable` flag, never by the status
 *   class: a final code (bad input, an upstream's 404, an SSRF refusal, a size limit) becomes an
 *   UnrecoverableError and fails at once, as in embedded mode; a retryable one (an S3/SQL/Redis
 *   outage, an unknown error) is retried with capped exponential backoff (retry-policy.ts; the job's
 *   `attempts`).
 *   Either way `failedReason` is the JSON of toJobError(err), which the producer parses back.
 * - Lock renewal: handlers hash blobs with `for await` over ≥ 1 MiB chunks, so the event loop turns
 *   between chunks and BullMQ's lock timer runs. A worker killed mid-job loses its lock; the
 *   stalled check (on by default) hands the job to another worker, up to `maxStalledCount` times.
 * - When a job completes or finally fails, it is announced — with its outcome on the channel of
 *   the API node waiting for it (`replyTo`), else by id on the shared job-events channel that
 *   onFinished listens to — and its blob is deleted.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { BlobStore } from '../blob/types.js';
import { isRetryableCode } from '../errors.js';
import { blobOf, QUEUE_NAMES, type JobKind, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { bullQueueName, jobOwnerRedisKey, namespacedRedisKey } from '../naming.js';
import { processMetrics, type Metrics } from '../metrics/catalogue.js';
import { jobRecorder } from '../metrics/record.js';
import { traceFields } from '../trace.js';
import {
  bullPrefixOf,
  bundleItemId,
  finishedChannelOf,
  finishedMessageOf,
  finishedRetentionMs,
  isBundleData,
  jobEventsChannel,
  parseFailedReason,
  type AnyBullJob,
  type BullBundleData,
  type BullData,
  type BullJob,
  type BundleItem,
  type BundleMessage,
  type BundleOutcome,
  type JobFinishedMessage,
} from './bullmq-wire.js';
import { toJobError } from './execute.js';
import { closeRedis, createRedis } from './redis-connection.js';
import { cappedBackoffDelay, DEFAULT_RETRY_POLICY } from './retry-policy.js';
import type { JobErrorInfo, JobHandler, JobHandlers, WorkerPool } from './types.js';

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
  /** Longest wait between two attempts of a job (JOB_BACKOFF_MAX_MS, default 15 s). */
  backoffMaxMs?: number;
  /** Times a job may lose its worker (killed, lock lapsed) and be taken over before it fails (JOB_MAX_STALLED_COUNT, default 3). */
  maxStalledCount?: number;
  /** Default: this process's registry. */
  metrics?: Metrics;
}

/** Thrown for a transient failure: BullMQ retries it; its message is the job error JSON. */
class RetryableJobError extends Error {
  override name = 'RetryableJobError';
}

export async function startBullMqWorkers(options: BullMqWorkersOptions): Promise<WorkerPool> {
  const { lockDurationMs = 30_000, stalledIntervalMs = 30_000, closeGraceMs = 30_000 } = options;
  const { backoffMaxMs = DEFAULT_RETRY_POLICY.backoffMaxMs, maxStalledCount = DEFAULT_RETRY_POLICY.maxStalledCount } = options;
  validate(options, { lockDurationMs, stalledIntervalMs, closeGraceMs, backoffMaxMs, maxStalledCount });
  const { logger, prefix } = options;

  // BullMQ duplicates this connection for each worker's normal and blocking clients.
  const base = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:worker' });
  const publisher = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:worker-events' });
  const blobTimers = new Set<NodeJS.Timeout>();

  const jobs = jobRecorder(options.metrics ?? processMetrics());
  const processor = async (job: BullJob): Promise<JobResults[JobKind]> => {
    const { kind, payload } = job.data;
    const handler = options.handlers[kind] as JobHandler<JobKind> | undefined;
    const attempt = job.attemptsMade + 1;
    // Every line about this job names the request that enqueued it (shared/trace.ts).
    const log = logger.child({ ...traceFields(job.data.trace), jobId: job.id, kind, attempt });
    const started = Date.now();
    // Wait is enqueue → first start; a retry's wait would include its backoff, which is not queueing.
    if (attempt === 1) jobs.waited(kind, (started - job.timestamp) / 1000);
    log.debug('job started');
    try {
      if (handler === undefined) throw new UnrecoverableError(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Internal error' }));
      const result = await handler(payload, { jobId: job.id ?? '', blobs: options.blobs });
      jobs.completed(kind, 'queue');
      log.info({ durationMs: Date.now() - started }, 'job completed');
      return result;
    } catch (err) {
      const info = err instanceof UnrecoverableError ? parseFailedReason(err.message) : toJobError(err);
      const retry = !(err instanceof UnrecoverableError) && isRetryableCode(info.code) && attempt < (job.opts.attempts ?? 1);
      if (retry) jobs.retried(kind, info.code);
      else jobs.failed(kind, info.code);
      if (info.code === 'INTERNAL_ERROR') log.error({ err, retry }, 'job attempt failed');
      else log.info({ code: info.code, retry, durationMs: Date.now() - started }, 'job attempt failed');
      if (err instanceof UnrecoverableError) throw err;
      const wire = JSON.stringify(info);
      throw isRetryableCode(info.code) ? new RetryableJobError(wire, { cause: err }) : new UnrecoverableError(wire);
    } finally {
      jobs.ran(kind, (Date.now() - started) / 1000);
    }
  };

  /**
   * One item of a bundle, run and counted as the job it stands for (its own kind, trace and log
   * lines, its id `<bundle id>.<index>`): its outcome, or null if it failed retryably with
   * attempts left.
   */
  const runItem = async (job: AnyBullJob, item: BundleItem, index: number, attempt: number): Promise<BundleOutcome | null> => {
    const { kind } = item;
    const jobId = bundleItemId(job.id ?? '', index);
    // The fields a job's child logger would bind, passed per line: a child per item costs more than its few lines.
    const fields = { ...traceFields(item.trace), jobId, kind, attempt };
    const started = Date.now();
    if (attempt === 1) jobs.waited(kind, (started - job.timestamp) / 1000);
    const handler = options.handlers[kind] as JobHandler<JobKind> | undefined;
    // Not a kind this worker knows: final, as for an ordinary job.
    if (handler === undefined) {
      jobs.failed(kind, 'INTERNAL_ERROR');
      logger.error(fields, 'job attempt failed: no handler for its kind');
      return { error: { code: 'INTERNAL_ERROR', message: 'Internal error' } };
    }
    try {
      const result = (await handler(item.payload, { jobId, blobs: options.blobs })) as JobResults[typeof kind];
      jobs.completed(kind, 'queue');
      logger.info({ ...fields, durationMs: Date.now() - started }, 'job completed');
      return { result };
    } catch (err) {
      const info: JobErrorInfo = toJobError(err);
      const retry = isRetryableCode(info.code) && attempt < (job.opts.attempts ?? 1);
      if (retry) jobs.retried(kind, info.code);
      else jobs.failed(kind, info.code);
      if (info.code === 'INTERNAL_ERROR') logger.error({ ...fields, err, retry }, 'job attempt failed');
      else logger.info({ ...fields, code: info.code, retry, durationMs: Date.now() - started }, 'job attempt failed');
      return retry ? null : { error: info };
    } finally {
      jobs.ran(kind, (Date.now() - started) / 1000);
    }
  };

  /**
   * A bundle: every item not answered yet, at once. Items that failed retryably with attempts left
   * make the bundle retry as a job would (backoff, `attempts`); the items already final are kept in
   * its data and announced now, so they neither wait out that backoff nor run again.
   */
  const bundleProcessor = async (job: Job<BullBundleData>): Promise<BundleOutcome[]> => {
    const attempt = job.attemptsMade + 1;
    const answered = job.data.answered ?? {};
    const outcomes = await Promise.all(
      job.data.bundle.map((item, index) => {
        const done = answered[String(index)];
        return done === undefined ? runItem(job as AnyBullJob, item, index, attempt) : Promise.resolve(done);
      }),
    );
    if (outcomes.every((outcome): outcome is BundleOutcome => outcome !== null)) return outcomes;
    const final = Object.fromEntries(outcomes.flatMap((outcome, index) => (outcome === null ? [] : [[String(index), outcome]])));
    await job.updateData({ ...job.data, answered: final });
    announceBundle(job, { id: job.id ?? '', state: 'partial', outcomes });
    const retried = job.data.bundle.filter((_, index) => outcomes[index] === null).length;
    throw new RetryableJobError(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: `${retried} bundled job(s) to retry` }));
  };

  const announceBundle = (job: Job<BullBundleData, unknown>, message: BundleMessage): void => {
    const channel = finishedChannelOf(prefix, job.data);
    // Only the node that submitted a bundle waits for it; no other node has anything to learn.
    if (channel === jobEventsChannel(prefix)) return;
    publisher.publish(channel, JSON.stringify(message)).catch((err: unknown) => {
      logger.warn({ err, jobId: job.id }, 'bundle message publish failed');
    });
  };

  const dispatch = (job: AnyBullJob): Promise<unknown> =>
    isBundleData(job.data) ? bundleProcessor(job as Job<BullBundleData>) : processor(job as BullJob);

  const finish = (anyJob: AnyBullJob, state: JobFinishedMessage['state']): void => {
    if (isBundleData(anyJob.data)) {
      const bundle = anyJob as Job<BullBundleData, BundleOutcome[]>;
      if (state === 'completed') {
        announceBundle(bundle, { id: bundle.id ?? '', state, outcomes: bundle.returnvalue });
      } else {
        const channel = finishedChannelOf(prefix, bundle.data);
        const message: JobFinishedMessage = { id: bundle.id ?? '', state, error: parseFailedReason(bundle.failedReason) };
        if (channel !== jobEventsChannel(prefix)) {
          publisher.publish(channel, JSON.stringify(message)).catch((err: unknown) => {
            logger.warn({ err, jobId: bundle.id }, 'bundle message publish failed');
          });
        }
      }
      // A bundle has no owner key and no blob (its kinds carry their data inline).
      return;
    }
    const job = anyJob as BullJob;
    // To the node waiting for it (with the outcome) if it names one, else to every node (bullmq-wire.ts).
    const channel = finishedChannelOf(prefix, job.data);
    const message = finishedMessageOf(job, state, channel !== jobEventsChannel(prefix));
    publisher.publish(channel, JSON.stringify(message)).catch((err: unknown) => {
      // Waiters poll the job's state, so a lost message only delays them.
      logger.warn({ err, jobId: job.id }, 'job-finished publish failed');
    });
    // The owner key was set to outlive any time the job spends queued (bullmq-queue.ts); now that
    // the job is finished, it expires with the job instead of up to a day after it. On a synchronous
    // job's key, already deleted by its API node, PEXPIRE does nothing.
    const keepMs = finishedRetentionMs(job, state);
    if (job.id !== undefined && keepMs !== undefined) {
      publisher.pexpire(namespacedRedisKey(prefix, jobOwnerRedisKey(job.id)), keepMs).catch((err: unknown) => {
        // Its TTL set at submission still bounds it.
        logger.warn({ err, jobId: job.id }, 'shortening a finished job owner key TTL failed');
      });
    }
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
    worker.on('completed', (job) => finish(job, 'completed'));
    worker.on('failed', (job) => {
      // Emitted for every failed attempt; finishedOn is set only when no retry follows.
      if (job !== undefined && typeof job.finishedOn === 'number') finish(job, 'failed');
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

interface Timings {
  lockDurationMs: number;
  stalledIntervalMs: number;
  closeGraceMs: number;
  backoffMaxMs: number;
  maxStalledCount: number;
}

function validate(options: BullMqWorkersOptions, timings: Timings): void {
  const { lockDurationMs, stalledIntervalMs, closeGraceMs, backoffMaxMs, maxStalledCount } = timings;
  const queues: readonly string[] = options.queues;
  if (queues.length === 0) throw new RangeError('queues must name at least one queue');
  for (const name of queues) {
    if (!(QUEUE_NAMES as readonly string[]).includes(name))
      throw new RangeError(`queues: unknown queue "${name}"; expected one of ${QUEUE_NAMES.join(', ')}`);
  }
  if (new Set(options.queues).size !== options.queues.length) throw new RangeError('queues must not repeat a queue');
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  if (!Number.isInteger(options.blobRetentionMs) || options.blobRetentionMs < 0)
    throw new RangeError('blobRetentionMs must be a non-negative integer');
  if (!Number.isInteger(lockDurationMs) || lockDurationMs < 1000) throw new RangeError('lockDurationMs must be an integer ≥ 1000');
  if (!Number.isInteger(stalledIntervalMs) || stalledIntervalMs < 1000) throw new RangeError('stalledIntervalMs must be an integer ≥ 1000');
  if (!Number.isInteger(closeGraceMs) || closeGraceMs < 0) throw new RangeError('closeGraceMs must be a non-negative integer');
  if (!Number.isInteger(backoffMaxMs) || backoffMaxMs < 0) throw new RangeError('backoffMaxMs must be a non-negative integer');
  if (!Number.isInteger(maxStalledCount) || maxStalledCount < 0) throw new RangeError('maxStalledCount must be a non-negative integer');
}
