/** What `startBullMqWorkers` is given, its defaults, and the checks that run before any I/O. */
import type { RedisTarget } from '../../shared/redis/topology.js';
import type { BlobStore } from '../../shared/blob/types.js';
import { QUEUE_NAMES, type QueueName } from '../../shared/jobs/contracts.js';
import type { Logger } from '../../shared/log.js';
import type { Metrics } from '../../shared/metrics/catalogue.js';
import { DEFAULT_RETRY_POLICY } from '../../shared/queue/retry-policy.js';
import type { JobHandlers, WebhookTarget } from '../../shared/queue/types.js';
import type { FinishedJob } from '../../shared/webhooks/events.js';

export interface BullMqWorkersOptions {
  /** The configured Redis (Config.redis), or a redis:// URL. */
  connection: RedisTarget;
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
  /** Each finished async job (completed, or failed for good): where webhook events start (workers/bullmq/webhooks.ts). */
  onJobFinished?: FinishedJobListener;
}

/** Told of a finished job once its outcome is final. */
export type FinishedJobListener = (job: FinishedJob, target: WebhookTarget) => void;

export interface Timings {
  lockDurationMs: number;
  stalledIntervalMs: number;
  closeGraceMs: number;
  backoffMaxMs: number;
  maxStalledCount: number;
}

/** The timings with their defaults, checked with the other options: a message names the option. */
export function timingsOf(options: BullMqWorkersOptions): Timings {
  const timings: Timings = {
    lockDurationMs: options.lockDurationMs ?? 30_000,
    stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
    closeGraceMs: options.closeGraceMs ?? 30_000,
    backoffMaxMs: options.backoffMaxMs ?? DEFAULT_RETRY_POLICY.backoffMaxMs,
    maxStalledCount: options.maxStalledCount ?? DEFAULT_RETRY_POLICY.maxStalledCount,
  };
  validate(options, timings);
  return timings;
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
