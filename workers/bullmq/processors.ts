/**
 * What a worker does with a job it takes: run its kind's handler, or each item of a bundle as the
 * job it stands for. Two kinds of failure, decided by the error catalog's `retryable` flag, never
 * by the status class: a final code (bad input, an upstream's 404, an SSRF refusal, a size limit)
 * becomes an UnrecoverableError and fails at once, as in embedded mode; a retryable one (an
 * S3/SQL/Redis outage, an unknown error) is retried with capped exponential backoff
 * (shared/queue/retry-policy.ts; the job's `attempts`). Either way `failedReason` is the JSON of
 * toJobError(err), which the producer parses back.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { BlobStore } from '../../shared/blob/types.js';
import { isRetryableCode } from '../../shared/errors.js';
import type { JobKind, JobResults } from '../../shared/jobs/contracts.js';
import type { Logger } from '../../shared/log.js';
import type { jobRecorder } from '../../shared/metrics/record.js';
import {
  bundleItemId,
  isBundleData,
  parseFailedReason,
  type AnyBullJob,
  type BullBundleData,
  type BullJob,
  type BundleItem,
  type BundleMessage,
  type BundleOutcome,
} from '../../shared/queue/bullmq-wire.js';
import { toJobError } from '../../shared/queue/execute.js';
import type { JobErrorInfo, JobHandler, JobHandlers } from '../../shared/queue/types.js';
import { traceFields } from '../../shared/trace.js';

/** Thrown for a transient failure: BullMQ retries it; its message is the job error JSON. */
export class RetryableJobError extends Error {
  override name = 'RetryableJobError';
}

export interface ProcessorContext {
  handlers: JobHandlers;
  blobs: BlobStore;
  logger: Logger;
  jobs: ReturnType<typeof jobRecorder>;
  /** Tells the bundle's node which items are final while the others are retried. */
  announceBundle(job: Job<BullBundleData, unknown>, message: BundleMessage): void;
}

/** The BullMQ processor: a bundle's items, or a job of its own. */
export function createDispatch(context: ProcessorContext): (job: AnyBullJob) => Promise<unknown> {
  const runJob = jobProcessor(context);
  const runBundle = bundleProcessor(context);
  return (job) => (isBundleData(job.data) ? runBundle(job as Job<BullBundleData>) : runJob(job as BullJob));
}

function jobProcessor({ handlers, blobs, logger, jobs }: ProcessorContext): (job: BullJob) => Promise<JobResults[JobKind]> {
  return async (job) => {
    const { kind, payload } = job.data;
    const handler = handlers[kind] as JobHandler<JobKind> | undefined;
    const attempt = job.attemptsMade + 1;
    // Every line about this job names the request that enqueued it (shared/trace.ts).
    const log = logger.child({ ...traceFields(job.data.trace), jobId: job.id, kind, attempt });
    const started = Date.now();
    // Wait is enqueue → first start; a retry's wait would include its backoff, which is not queueing.
    if (attempt === 1) jobs.waited(kind, (started - job.timestamp) / 1000);
    log.debug('job started');
    try {
      if (handler === undefined) throw new UnrecoverableError(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Internal error' }));
      const result = await handler(payload, { jobId: job.id ?? '', blobs });
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
}

/**
 * A bundle: every item not answered yet, at once. Items that failed retryably with attempts left
 * make the bundle retry as a job would (backoff, `attempts`); the items already final are kept in
 * its data and announced now, so they neither wait out that backoff nor run again.
 */
function bundleProcessor(context: ProcessorContext): (job: Job<BullBundleData>) => Promise<BundleOutcome[]> {
  const runItem = itemRunner(context);
  return async (job) => {
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
    context.announceBundle(job, { id: job.id ?? '', state: 'partial', outcomes });
    const retried = job.data.bundle.filter((_, index) => outcomes[index] === null).length;
    throw new RetryableJobError(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: `${retried} bundled job(s) to retry` }));
  };
}

/**
 * One item of a bundle, run and counted as the job it stands for (its own kind, trace and log
 * lines, its id `<bundle id>.<index>`): its outcome, or null if it failed retryably with
 * attempts left.
 */
function itemRunner({
  handlers,
  blobs,
  logger,
  jobs,
}: ProcessorContext): (job: AnyBullJob, item: BundleItem, index: number, attempt: number) => Promise<BundleOutcome | null> {
  return async (job, item, index, attempt) => {
    const { kind } = item;
    const jobId = bundleItemId(job.id ?? '', index);
    // The fields a job's child logger would bind, passed per line: a child per item costs more than its few lines.
    const fields = { ...traceFields(item.trace), jobId, kind, attempt };
    const started = Date.now();
    if (attempt === 1) jobs.waited(kind, (started - job.timestamp) / 1000);
    const handler = handlers[kind] as JobHandler<JobKind> | undefined;
    // Not a kind this worker knows: final, as for an ordinary job.
    if (handler === undefined) {
      jobs.failed(kind, 'INTERNAL_ERROR');
      logger.error(fields, 'job attempt failed: no handler for its kind');
      return { error: { code: 'INTERNAL_ERROR', message: 'Internal error' } };
    }
    try {
      const result = (await handler(item.payload, { jobId, blobs })) as JobResults[typeof kind];
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
}
