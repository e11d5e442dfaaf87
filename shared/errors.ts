/**
 * The one error catalog. Every failure the service reports has a stable string code here;
 * each API generation maps a ServiceError to its own envelope in exactly one place
 * (api/http/envelopes.ts: renderV1Error, renderV2Error). Codes are part of the public contract:
 * never rename one, only add.
 *
 * SPEC "Errors": v2 codes INVALID_INPUT, UNAUTHORIZED, EXPIRED_KEY, FILE_TOO_LARGE,
 * RATE_LIMIT_EXCEEDED, INTERNAL_ERROR; the rest are this service's additions (docs/decisions.md).
 */
export const ERROR_CATALOG = {
  INVALID_INPUT: { status: 400, message: 'Invalid or missing required parameters' },
  UNAUTHORIZED: { status: 401, message: 'Invalid or missing API key' },
  EXPIRED_KEY: { status: 401, message: 'API key has expired' },
  FORBIDDEN: { status: 403, message: 'API key lacks permission for this request' },
  NOT_FOUND: { status: 404, message: 'Resource or endpoint does not exist' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this endpoint' },
  CONFLICT: { status: 409, message: 'Request conflicts with an earlier one' },
  FILE_TOO_LARGE: { status: 413, message: 'File exceeds the maximum size' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body exceeds the maximum size' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type' },
  URL_NOT_ALLOWED: { status: 400, message: 'URL is not allowed' },
  URL_FETCH_FAILED: { status: 502, message: 'Fetching the URL failed' },
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'Too many requests' },
  TOO_MANY_CONNECTIONS: { status: 429, message: 'Too many concurrent connections' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service temporarily unavailable' },
  JOB_TIMEOUT: { status: 504, message: 'The job did not finish in time; fetch its result later' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

export interface ServiceErrorOptions {
  /** Public, human-readable; defaults to the catalog message. Never include secrets or internals. */
  message?: string;
  /** Public additional text, e.g. which field was wrong. */
  details?: string;
  /** Seconds to wait; set on rate-limit errors (SPEC "Errors, v2": error.retry_after). */
  retryAfter?: number;
  /** Extra public fields for the envelope, e.g. a job id on JOB_TIMEOUT. */
  extra?: Record<string, string | number>;
  /** Private: logged, never sent. */
  cause?: unknown;
}

/** A failure with a stable public code. Anything thrown that is not a ServiceError becomes INTERNAL_ERROR. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: string | undefined;
  readonly retryAfter: number | undefined;
  readonly extra: Record<string, string | number> | undefined;

  constructor(code: ErrorCode, options: ServiceErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOG[code].message, { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
  }

  /** Bad input: retrying the same job can never succeed (BullMQ "give up" class). */
  get isPermanent(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export function invalidInput(field: string, message: string): ServiceError {
  return new ServiceError('INVALID_INPUT', { message, details: `field: ${field}` });
}

export function isServiceError(err: unknown): err is ServiceError {
  return err instanceof ServiceError;
}

/** Rebuild a ServiceError that crossed a process boundary (queue) as {code, message, details}. */
export function serviceErrorFromWire(wire: { code?: unknown; message?: unknown; details?: unknown }): ServiceError {
  const code = typeof wire.code === 'string' && wire.code in ERROR_CATALOG ? (wire.code as ErrorCode) : 'INTERNAL_ERROR';
  return new ServiceError(code, {
    message: code === 'INTERNAL_ERROR' || typeof wire.message !== 'string' ? undefined : wire.message,
    details: typeof wire.details === 'string' ? wire.details : undefined,
  });
}
