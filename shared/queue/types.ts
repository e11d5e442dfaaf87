import type { BlobStore } from '../blob/types.js';
import type { JobKind, JobPayloads, JobResults } from '../jobs/contracts.js';
import type { TraceContext } from '../trace.js';

export type JobState = 'queued' | 'active' | 'completed' | 'failed';

/** A job error as it is stored and sent: the public part of a ServiceError. */
export interface JobErrorInfo {
  code: string;
  message: string;
  details?: string;
}

/** A job of kind K as the queue holds it. */
export interface JobRecordOf<K extends JobKind> {
  id: string;
  kind: K;
  accountId: string;
  state: JobState;
  payload: JobPayloads[K];
  result?: JobResults[K];
  error?: JobErrorInfo;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The request that created the job (shared/trace.ts); for its log lines, never returned to callers. */
  trace?: TraceContext;
  finishedAt?: number;
  /** Set on async jobs: their finish is announced to the account's webhooks (shared/webhooks/). */
  webhook?: WebhookTarget;
}

/** Which webhook endpoints hear of a finished async job: all matching ones, or the one named. */
export interface WebhookTarget {
  endpointId?: string;
}

/**
 * A job of any kind, discriminated by `kind`: a `switch (record.kind)` narrows its payload and
 * result together, so readers need no casts.
 */
export type JobRecord<K extends JobKind = JobKind> = { [Kind in K]: JobRecordOf<Kind> }[K];

export interface SubmitOptions {
  accountId: string;
  /** Same account + same key → the existing job is returned instead of a new one. */
  idempotencyKey?: string;
  /**
   * The request's fingerprint (idempotency.ts), stored with the key: the same key presented with
   * another fingerprint fails with IDEMPOTENCY_KEY_REUSED.
   */
  fingerprint?: string;
  /** Async submissions set it (api/jobs/executor.ts): the finished job becomes webhook deliveries. */
  webhook?: WebhookTarget;
}

export interface RunOptions extends SubmitOptions {
  /**
   * Bound on the wait. Past it, a job no worker has taken is removed and the run fails with 503
   * SERVICE_UNAVAILABLE (Retry-After); a job already running goes on, and the run fails with
   * JOB_TIMEOUT carrying `job_id` (docs/decisions.md "Jobs and modes").
   */
  timeoutMs: number;
  /**
   * Aborts when the caller is gone (its connection closed). A job no worker has taken is then
   * removed and the run rejects with the signal's reason; a running job is still waited for.
   */
  signal?: AbortSignal;
}

/** The producer side, used by API nodes. */
export interface JobQueue {
  /**
   * Enqueue and wait for the result (synchronous HTTP responses). Once answered, the job is
   * forgotten (no record is kept) unless it was created with an idempotency key; jobs past
   * `maxWaiting` are refused with 503 SERVICE_UNAVAILABLE, as in `submit`.
   */
  run<K extends JobKind>(kind: K, payload: JobPayloads[K], options: RunOptions): Promise<JobResults[K]>;
  /** Enqueue and return at once (async jobs); refused with 503 SERVICE_UNAVAILABLE while the kind's queue holds `maxWaiting` jobs. */
  submit<K extends JobKind>(kind: K, payload: JobPayloads[K], options: SubmitOptions): Promise<{ id: string; created: boolean }>;
  /** A job by id, or undefined if unknown or expired. */
  get(id: string): Promise<JobRecord | undefined>;
  /** Called with each job id as it completes or fails, on any node (WebSocket and socket.io pushes). */
  onFinished(listener: (jobId: string) => void): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Prepares, without waiting, the queue a kind's job will go to: called where a job is sure to
   * follow (a resumable upload's creation), so its first job does not pay for building the queue
   * (BullMQ is imported on first use: shared/queue/bullmq-load.ts).
   */
  prepare?(kind: JobKind): void;
}

export interface JobContext {
  jobId: string;
  blobs: BlobStore;
}

export type JobHandler<K extends JobKind> = (payload: JobPayloads[K], ctx: JobContext) => Promise<JobResults[K]>;
export type JobHandlers = { readonly [K in JobKind]: JobHandler<K> };

/** The consumer side, run by worker processes (or in-process in embedded mode). */
export interface WorkerPool {
  close(): Promise<void>;
}
