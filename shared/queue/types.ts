import type { BlobStore } from '../blob/types.js';
import type { JobKind, JobPayloads, JobResults } from '../jobs/contracts.js';

export type JobState = 'queued' | 'active' | 'completed' | 'failed';

/** A job error as it is stored and sent: the public part of a ServiceError. */
export interface JobErrorInfo {
  code: string;
  message: string;
  details?: string;
}

export interface JobRecord<K extends JobKind = JobKind> {
  id: string;
  kind: K;
  accountId: string;
  state: JobState;
  payload: JobPayloads[K];
  result?: JobResults[K];
  error?: JobErrorInfo;
  /** Epoch milliseconds. */
  createdAt: number;
  finishedAt?: number;
}

export interface SubmitOptions {
  accountId: string;
  /** Same account + same key → the existing job is returned instead of a new one. */
  idempotencyKey?: string;
}

export interface RunOptions extends SubmitOptions {
  /** Bound on the wait; then ServiceError JOB_TIMEOUT carrying `job_id`. */
  timeoutMs: number;
}

/** The producer side, used by API nodes. */
export interface JobQueue {
  /** Enqueue and wait for the result (synchronous HTTP responses). */
  run<K extends JobKind>(kind: K, payload: JobPayloads[K], options: RunOptions): Promise<JobResults[K]>;
  /** Enqueue and return at once (async jobs, issue 3). */
  submit<K extends JobKind>(kind: K, payload: JobPayloads[K], options: SubmitOptions): Promise<{ id: string; created: boolean }>;
  /** A job by id, or undefined if unknown or expired. */
  get(id: string): Promise<JobRecord | undefined>;
  /** Called with each job id as it completes or fails, on any node (WebSocket and socket.io pushes). */
  onFinished(listener: (jobId: string) => void): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
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
