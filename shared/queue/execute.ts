import { isServiceError, ServiceError, serviceErrorFromWire } from '../errors.js';
import type { JobErrorInfo } from './types.js';

/** The public part of an error, as it is stored on a failed job. Internals never leave the worker. */
export function toJobError(err: unknown): JobErrorInfo {
  if (isServiceError(err)) {
    return err.details === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, details: err.details };
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
