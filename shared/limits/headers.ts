/**
 * Rate-limit headers on every authenticated response and the 429 error (docs/api.md
 * "Limits"). The API's envelopes turn the ServiceError into the v1 or v2 body.
 */
import { ServiceError } from '../errors.js';
import type { Generation, LimitDecision } from './types.js';

/**
 * X-RateLimit-Limit / -Remaining / -Reset (Unix seconds) describe the decision's binding window;
 * v2 adds X-RateLimit-Retry-After (0 while allowed); a refusal adds the standard Retry-After.
 * No limit at all is reported as Limit and Remaining -1, Reset at the next UTC midnight.
 */
export function rateLimitHeaders(decision: LimitDecision, generation: Generation | 'v1'): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAtUnix),
  };
  if (generation === 'v2' || generation === 'ws') {
    headers['X-RateLimit-Retry-After'] = String(decision.allowed ? 0 : decision.retryAfterSeconds);
  }
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}

/** 429 RATE_LIMIT_EXCEEDED; `details` says which limit refused ("rate limit" or "daily quota"). */
export function rateLimitError(decision: LimitDecision): ServiceError {
  const details =
    decision.reason === 'quota'
      ? `daily quota of ${decision.limit} requests exceeded; it resets at 00:00 UTC`
      : `rate limit of ${decision.limit} requests per ${decision.window} exceeded`;
  return new ServiceError('RATE_LIMIT_EXCEEDED', { details, retryAfter: decision.retryAfterSeconds });
}
