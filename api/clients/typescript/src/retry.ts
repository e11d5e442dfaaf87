/**
 * When and how long to wait before trying a request again (docs/decisions.md "Client SDKs").
 *
 * Retried: 429, 503 and 504 answers and connection failures — and only requests that are safe to
 * send twice: computations and reads, or job submissions and uploads that carry an
 * `Idempotency-Key` and whose body can be produced again.
 */

export interface RetryOptions {
  /** Retries after the first attempt; 0 disables retrying. Default 3. */
  maxRetries?: number;
  /** Backoff ceiling of the first retry, in ms; doubles each retry. Default 500. */
  baseDelayMs?: number;
  /** Ceiling of any computed backoff, in ms. Default 20,000. */
  maxDelayMs?: number;
  /**
   * A `Retry-After` longer than this (ms) is not waited for: the error is thrown with
   * `retryAfter` set (a daily quota resets at 00:00 UTC, hours away). Default 60,000.
   */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1); replaceable in tests. Default Math.random. */
  random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503, 504]);

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  const policy: RetryPolicy = {
    maxRetries: 3,
    baseDelayMs: 500,
    maxDelayMs: 20_000,
    maxRetryAfterMs: 60_000,
    random: Math.random,
    ...(options === false ? { maxRetries: 0 } : options),
  };
  for (const name of ['maxRetries', 'baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(policy[name]) || policy[name] < 0) throw new RangeError(`retry.${name} must be a number >= 0`);
  }
  return policy;
}

/** Full jitter (uniform in [0, min(max, base·2^retry))): spreads clients that failed together. */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry) * policy.random();
}

/**
 * Milliseconds to wait before retry number `retry + 1` (`retry` counts from 0), or undefined when
 * no further attempt should be made. A wait the service names is honoured as given.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterSeconds: number | undefined): number | undefined {
  if (retry >= policy.maxRetries) return undefined;
  if (retryAfterSeconds !== undefined && retryAfterSeconds > 0) {
    const ms = retryAfterSeconds * 1000;
    return ms > policy.maxRetryAfterMs ? undefined : ms;
  }
  return backoffMs(policy, retry);
}

/** Passed to the client's `onRetry` before each wait. */
export interface RetryEvent {
  /** Operation name, e.g. `v2.hash`. */
  operation: string;
  /** 1 for the first retry. */
  retry: number;
  /** Milliseconds about to be waited. */
  delayMs: number;
  /** HTTP status that caused the retry; undefined for a connection failure. */
  status: number | undefined;
  /** The error that would otherwise have been thrown. */
  error: Error;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
}
