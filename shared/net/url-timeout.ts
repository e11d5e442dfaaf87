/**
 * The URL fetch's deadline as the API takes it (`POST /v1/hash/url` `timeout`). Apart from
 * fetch-and-hash.ts, so the API node validates a request without loading the HTTP client a
 * worker fetches with.
 */
import { invalidInput } from '../errors.js';

export const URL_TIMEOUT_DEFAULT_MS = 10_000;
export const URL_TIMEOUT_MAX_MS = 60_000;
/**
 * The API's `timeout` (seconds, optional) as milliseconds: default 10 s; refuses (INVALID_INPUT,
 * field `timeout`) anything that is not a finite number in (0, 60].
 */
export function resolveTimeoutMs(timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined) return URL_TIMEOUT_DEFAULT_MS;
  if (
    typeof timeoutSeconds !== 'number' ||
    !Number.isFinite(timeoutSeconds) ||
    timeoutSeconds <= 0 ||
    timeoutSeconds * 1000 > URL_TIMEOUT_MAX_MS
  ) {
    throw invalidInput('timeout', `timeout must be greater than 0 and at most ${URL_TIMEOUT_MAX_MS / 1000} seconds`);
  }
  return Math.ceil(timeoutSeconds * 1000);
}
