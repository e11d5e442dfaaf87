import type { ServiceError } from '../../shared/errors.js';

/**
 * Each API generation's error body, built in exactly one place.
 * v2 (docs/api.md "v2 errors"): {success:false, error:{code, message, details: string, retry_after?}}.
 * v1 (docs/api.md "v1 errors"): {error:{code, message, details: object}} with the same codes.
 */
export type ErrorRenderer = (err: ServiceError) => Record<string, unknown>;

export const renderV2Error: ErrorRenderer = (err) => ({
  success: false,
  error: {
    code: err.code,
    message: err.message,
    details: err.details ?? '',
    ...(err.retryAfter === undefined ? {} : { retry_after: err.retryAfter }),
    ...err.extra,
  },
});

export const renderV1Error: ErrorRenderer = (err) => ({
  error: {
    code: err.code,
    message: err.message,
    details: {
      ...(err.details === undefined ? {} : { info: err.details }),
      ...(err.retryAfter === undefined ? {} : { retry_after: err.retryAfter }),
      ...err.extra,
    },
  },
});
