import { isServiceError, ServiceError, serviceErrorFromWire } from '../errors.js';
import type { JobErrorInfo } from './types.js';

/** The public part of an error, as it is stored on a failed job. Internals never leave the worker. */
export function toJobError(err: unknown): JobErrorInfo {
  if (isServiceError(err)) {
    return err.details === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, details: err.details };
  }
  return { code: 'INTERNAL_ERROR', message: 'Internal error' };
}

export function fromJobError(info: JobErrorInfo): ServiceError {
  return serviceErrorFromWire(info);
}

export function jobTimeout(jobId: string, timeoutMs: number): ServiceError {
  return new ServiceError('JOB_TIMEOUT', {
    details: `job ${jobId} did not finish within ${timeoutMs} ms; GET /v2/jobs/${jobId} for its result`,
    extra: { job_id: jobId },
  });
}

/**
 * Retry-After (seconds) of a 503 from the queue: a queue at its bound, or a synchronous job no
 * worker took in time. Long enough for workers to drain part of a backlog, short enough that a
 * returning worker pool is used within seconds.
 */
export const QUEUE_RETRY_AFTER_SECONDS = 5;

/**
 * A synchronous job still queued at its deadline: it has been removed and will never run, so the
 * answer is "try again" (503), not JOB_TIMEOUT, whose job goes on and is fetched by id.
 */
export function jobNotStarted(timeoutMs: number): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', {
    details: `no worker took the job within ${timeoutMs} ms; it was cancelled — retry later`,
    retryAfter: QUEUE_RETRY_AFTER_SECONDS,
  });
}

/** Backpressure: the kind's queue already holds `maxWaiting` jobs no worker has taken. */
export function queueFull(queue: string): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', {
    details: `the ${queue} queue is full; retry later`,
    retryAfter: QUEUE_RETRY_AFTER_SECONDS,
  });
}
