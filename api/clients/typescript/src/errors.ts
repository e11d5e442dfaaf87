/**
 * Typed errors. Every failure the service reports carries a stable string `code` (the service's
 * catalog, shared/errors.ts; v1 uses the same codes as v2); each HTTP family has its own class so
 * callers can catch broadly (`RateLimitError`) or `switch (err.code)`. Failures on the client's
 * side (network, a wait that gave up) have codes of their own.
 */

export type ErrorDetails = string | Record<string, string | number> | undefined;

export interface Sha224dErrorInit {
  code: string;
  message: string;
  /** HTTP status of the answer; undefined when there was none (network, WebSocket reply). */
  status?: number;
  /** `X-Request-Id` of the answer, to quote when reporting a problem. */
  requestId?: string;
  /** Seconds the service asked the client to wait (`Retry-After`, or `retry_after` in the body). */
  retryAfter?: number;
  /** v2: a string; v1: an object (`info`, `retry_after`, …). */
  details?: ErrorDetails;
  /** The job concerned: a 504 JOB_TIMEOUT, or an async job that failed. */
  jobId?: string;
  cause?: unknown;
}

/** Base of every error this package throws. */
export class Sha224dError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly details: ErrorDetails;
  readonly jobId: string | undefined;

  constructor(init: Sha224dErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.details = init.details;
    this.jobId = init.jobId;
  }
}

/** The service answered with an error envelope, or with something that is not its JSON. */
export class ApiError extends Sha224dError {}
/** 400, 404, 405, 409, 415: the request cannot succeed as sent. */
export class InvalidRequestError extends ApiError {}
/** 401 UNAUTHORIZED or EXPIRED_KEY: the key or token is missing, unknown, revoked or expired. */
export class AuthenticationError extends ApiError {}
/** 403 FORBIDDEN: the credential is valid but may not make this request. */
export class PermissionDeniedError extends ApiError {}
/** 413 FILE_TOO_LARGE or PAYLOAD_TOO_LARGE. */
export class TooLargeError extends ApiError {}
/** 429 RATE_LIMIT_EXCEEDED or TOO_MANY_CONNECTIONS; `retryAfter` says how long to wait. */
export class RateLimitError extends ApiError {}
/** 5xx: the service, or something it depends on, failed. */
export class ServerError extends ApiError {}
/** 504 JOB_TIMEOUT: the job did not finish in time; `jobId` names it (fetch it later). */
export class JobTimeoutError extends ServerError {}
/** The service could not be reached, or the connection failed before a full answer. */
export class NetworkError extends Sha224dError {}
/** A wait for a job gave up before the job finished; the job may still complete. */
export class WaitTimeoutError extends Sha224dError {}

/** A job wait that gave up. */
export function waitTimeout(jobId: string): WaitTimeoutError {
  return new WaitTimeoutError({ code: 'WAIT_TIMEOUT', message: `job ${jobId} did not finish while waiting; it may still complete`, jobId });
}

/** HTTP status of each code of the service's catalog (shared/errors.ts). */
export const ERROR_STATUSES: Readonly<Record<string, number>> = {
  INVALID_INPUT: 400,
  URL_NOT_ALLOWED: 400,
  UNAUTHORIZED: 401,
  EXPIRED_KEY: 401,
  FORBIDDEN: 403,
  IP_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  FILE_TOO_LARGE: 413,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  TOO_MANY_CONNECTIONS: 429,
  INTERNAL_ERROR: 500,
  URL_FETCH_FAILED: 502,
  SERVICE_UNAVAILABLE: 503,
  JOB_TIMEOUT: 504,
};

/** The class for an answer: by code where the code decides, else by HTTP status family. */
export function errorClassFor(code: string, status: number | undefined): typeof ApiError {
  if (code === 'JOB_TIMEOUT') return JobTimeoutError;
  const effective = status ?? ERROR_STATUSES[code];
  if (effective === undefined) return ApiError;
  if (effective === 401) return AuthenticationError;
  if (effective === 403) return PermissionDeniedError;
  if (effective === 413) return TooLargeError;
  if (effective === 429) return RateLimitError;
  if (effective >= 500) return ServerError;
  if (effective >= 400) return InvalidRequestError;
  return ApiError;
}

// An answer without the envelope (a proxy's page, an old server) is classed by its status alone.
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Seconds to wait, from `Retry-After` (seconds or an HTTP date, RFC 9110 §10.2.3), else from
 * v2's `X-RateLimit-Retry-After` when positive (it is 0 on every allowed request).
 */
export function parseRetryAfter(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (value !== undefined && value !== '') {
    if (/^\d+$/.test(value)) return Number(value);
    const when = Date.parse(value);
    if (!Number.isNaN(when)) return Math.max(0, (when - nowMs) / 1000);
  }
  const fallback = Number(headers.get('x-ratelimit-retry-after') ?? NaN);
  return Number.isFinite(fallback) && fallback > 0 ? fallback : undefined;
}

/** An envelope's `{code, message, details, retry_after?, job_id?}`, from v2 or v1 bodies. */
interface Envelope {
  code: string;
  message: string;
  details: ErrorDetails;
  retryAfter: number | undefined;
  jobId: string | undefined;
}

function envelopeOf(body: unknown): Envelope | undefined {
  const error = isRecord(body) ? body.error : undefined;
  if (!isRecord(error) || typeof error.code !== 'string') return undefined;
  const details = typeof error.details === 'string' || isRecord(error.details) ? (error.details as ErrorDetails) : undefined;
  // v2 puts retry_after and job_id beside details; v1 inside details (api/http/envelopes.ts).
  const extra: Record<string, unknown> = isRecord(error.details) ? error.details : error;
  return {
    code: error.code,
    message: typeof error.message === 'string' ? error.message : error.code,
    details,
    retryAfter: typeof extra.retry_after === 'number' ? extra.retry_after : undefined,
    jobId: typeof extra.job_id === 'string' ? extra.job_id : undefined,
  };
}

/** The typed error for an HTTP answer that is not a success, from either generation's envelope. */
export function errorFromResponse(status: number, headers: Headers, body: unknown): ApiError {
  const requestId = headers.get('x-request-id') ?? undefined;
  const retryAfterHeader = parseRetryAfter(headers);
  const envelope = envelopeOf(body);
  if (!envelope) {
    const code = CODE_BY_STATUS[status] ?? (status === 0 || (status >= 300 && status < 400) ? 'UNEXPECTED_RESPONSE' : `HTTP_${status}`);
    const location = headers.get('location');
    // Status 0 is a browser's opaque redirect (requests are sent with redirect: 'manual').
    const redirected = status === 0 || (status >= 300 && status < 400);
    const message = redirected
      ? `the service redirected to ${location ?? 'another address'}; use that address as baseUrl`
      : `HTTP ${status} without the service's error body`;
    const Class = redirected ? ApiError : errorClassFor(code, status);
    return new Class({ code, message, status, requestId, retryAfter: retryAfterHeader });
  }
  const Class = errorClassFor(envelope.code, status);
  return new Class({
    code: envelope.code,
    message: envelope.message,
    status,
    requestId,
    retryAfter: retryAfterHeader ?? envelope.retryAfter,
    details: envelope.details,
    jobId: envelope.jobId,
  });
}

/** The error of a failed async job or of a WebSocket error reply: the class of its code. */
export function errorFromEnvelope(body: unknown, context: { jobId?: string; requestId?: string } = {}): ApiError {
  const envelope = envelopeOf(body) ?? {
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
    details: undefined,
    retryAfter: undefined,
    jobId: undefined,
  };
  const Class = errorClassFor(envelope.code, undefined);
  return new Class({
    code: envelope.code,
    message: envelope.message,
    status: ERROR_STATUSES[envelope.code],
    requestId: context.requestId,
    retryAfter: envelope.retryAfter,
    details: envelope.details,
    jobId: context.jobId ?? envelope.jobId,
  });
}
