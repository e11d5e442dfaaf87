/**
 * The one error catalog. Every failure the service reports has a stable string code here;
 * each API generation maps a ServiceError to its own envelope in exactly one place
 * (api/http/envelopes.ts: renderV1Error, renderV2Error). Codes are part of the public contract:
 * never rename one, only add.
 *
 * docs/api.md "Errors": v2 codes INVALID_INPUT, UNAUTHORIZED, EXPIRED_KEY, FILE_TOO_LARGE,
 * RATE_LIMIT_EXCEEDED, INTERNAL_ERROR; the rest are this service's additions (docs/decisions.md).
 *
 * `retryable` says whether the same request can succeed later without changing it: a transient
 * fault (a Redis/S3/SQL outage, an unknown internal error, a limit that resets) is retryable; a
 * verdict on the request itself (bad input, an upstream's answer, an SSRF refusal, a size limit)
 * is final. BullMQ workers retry exactly the retryable codes (workers/bullmq/processors.ts).
 */
export const ERROR_CATALOG = {
  INVALID_INPUT: { status: 400, retryable: false, message: 'Invalid or missing required parameters' },
  UNAUTHORIZED: { status: 401, retryable: false, message: 'Invalid or missing API key' },
  EXPIRED_KEY: { status: 401, retryable: false, message: 'API key has expired' },
  FORBIDDEN: { status: 403, retryable: false, message: 'API key lacks permission for this request' },
  CREDENTIAL_EXPOSED: { status: 403, retryable: false, message: 'A credential was sent over plain HTTP and must be treated as exposed' },
  IP_NOT_ALLOWED: { status: 403, retryable: false, message: "The request's IP address is not on the credential's IP allow-list" },
  NOT_FOUND: { status: 404, retryable: false, message: 'Resource or endpoint does not exist' },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false, message: 'Method not allowed on this endpoint' },
  REQUEST_TIMEOUT: { status: 408, retryable: true, message: 'The request was not received in time' },
  CONFLICT: { status: 409, retryable: true, message: 'Request conflicts with an earlier one' },
  FILE_TOO_LARGE: { status: 413, retryable: false, message: 'File exceeds the maximum size' },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false, message: 'Request body exceeds the maximum size' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, retryable: false, message: 'Unsupported content type' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, retryable: false, message: 'Idempotency-Key was already used for a different request' },
  URL_NOT_ALLOWED: { status: 400, retryable: false, message: 'URL is not allowed' },
  URL_FETCH_FAILED: { status: 502, retryable: false, message: 'Fetching the URL failed' },
  RATE_LIMIT_EXCEEDED: { status: 429, retryable: true, message: 'Too many requests' },
  TOO_MANY_CONNECTIONS: { status: 429, retryable: true, message: 'Too many concurrent connections' },
  HEADERS_TOO_LARGE: { status: 431, retryable: false, message: 'Request headers are too large' },
  INTERNAL_ERROR: { status: 500, retryable: true, message: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, retryable: true, message: 'Service temporarily unavailable' },
  JOB_TIMEOUT: { status: 504, retryable: true, message: 'The job did not finish in time; fetch its result later' },
  // Resumable uploads (tus 1.0 at /v2/uploads, docs/decisions.md "Resumable uploads") and verify-on-ingest.
  HASH_MISMATCH: { status: 422, retryable: false, message: 'The SHA-224 of the received bytes differs from the expected one' },
  TUS_VERSION_UNSUPPORTED: { status: 412, retryable: false, message: 'Tus-Resumable must be 1.0.0' },
  UPLOAD_OFFSET_MISMATCH: { status: 409, retryable: false, message: 'Upload-Offset differs from the bytes the upload holds' },
  UPLOAD_LOCKED: { status: 423, retryable: true, message: 'Another request is writing to this upload' },
  UPLOAD_EXPIRED: { status: 410, retryable: false, message: 'The upload has expired and its bytes are deleted' },
  CHECKSUM_MISMATCH: { status: 460, retryable: false, message: 'Upload-Checksum does not match the bytes received; they were discarded' },
  RANGE_NOT_SATISFIABLE: { status: 416, retryable: false, message: 'The requested range starts past the end of the representation' },
} as const satisfies Record<string, { status: number; retryable: boolean; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

/** Retry-After of a SERVICE_UNAVAILABLE that names no other: the queue's and the database's bound too. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface ServiceErrorOptions {
  /** Public, human-readable; defaults to the catalog message. Never include secrets or internals. */
  message?: string;
  /** Public additional text, e.g. which field was wrong. */
  details?: string;
  /** Seconds to wait (docs/api.md "v2 errors": error.retry_after); SERVICE_UNAVAILABLE defaults to UNAVAILABLE_RETRY_AFTER_SECONDS. */
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
    // Every 503 says when to come back (RFC 9110 §10.2.3), whichever dependency failed: decided
    // here once rather than at each place a store, a queue or a part maps its failure.
    this.retryAfter = options.retryAfter ?? (code === 'SERVICE_UNAVAILABLE' ? UNAVAILABLE_RETRY_AFTER_SECONDS : undefined);
    this.extra = options.extra;
  }

  /** The catalog's verdict: can the same request succeed if retried later? */
  get retryable(): boolean {
    return ERROR_CATALOG[this.code].retryable;
  }

  /**
   * The `Retry-After` of this answer, in seconds (RFC 9110 §10.2.3): the error's own figure, else
   * DEFAULT_RETRY_AFTER_SECONDS on every 429 and 503, so each of them says when to come back
   * (docs/api.md "Errors"); undefined for other statuses.
   */
  get retryAfterHeader(): number | undefined {
    if (this.retryAfter !== undefined) return this.retryAfter;
    return this.status === 429 || this.status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined;
  }
}

/**
 * `Retry-After` of a 429 or 503 whose cause does not know when it ends (a dependency outage, a full
 * queue, too many connections): one second, the shortest whole wait, as realtime overload already
 * says; clients back off further on their own (docs/decisions.md "Documentation").
 */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

export function invalidInput(field: string, message: string): ServiceError {
  return new ServiceError('INVALID_INPUT', { message, details: `field: ${field}` });
}

/** Whether a job that failed with this code should be tried again (unknown codes read as INTERNAL_ERROR). */
export function isRetryableCode(code: string): boolean {
  return code in ERROR_CATALOG ? ERROR_CATALOG[code as ErrorCode].retryable : ERROR_CATALOG.INTERNAL_ERROR.retryable;
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
