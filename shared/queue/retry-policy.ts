/**
 * How a distributed job is tried again after a transient failure (docs/decisions.md "Jobs and
 * modes"): exponential backoff from a base, capped, with a little jitter so jobs queued during one
 * outage do not all return at the same instant. The producer stamps `attempts` and the base on each
 * job; the worker applies the cap (BullMQ's backoff options carry no maximum) and the stalled limit.
 */
import type { BackoffOptions } from 'bullmq';

/** Defaults: the waits sum to 1+2+4+8+15×5 = 90 s, so ~60 s of S3/SQL/worker trouble is ridden out. */
export const DEFAULT_RETRY_POLICY = {
  attempts: 10,
  backoffMs: 1000,
  backoffMaxMs: 15_000,
  maxStalledCount: 3,
} as const;

/** The job's backoff type; a worker resolves it with `cappedBackoffDelay`. */
export const CAPPED_EXPONENTIAL = 'sha224d-capped-exponential';

/** Up to this fraction of a delay is taken off at random. */
const JITTER = 0.2;

export function cappedBackoff(backoffMs: number): BackoffOptions {
  return { type: CAPPED_EXPONENTIAL, delay: backoffMs };
}

/**
 * Delay before the retry that follows `attemptsMade` failed attempts (1 → the base):
 * min(max, base × 2^(attemptsMade−1)), less up to 20 % at random. `random` is injectable for tests.
 */
export function cappedBackoffDelay(attemptsMade: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, attemptsMade - 1);
  // 2^exponent overflows to Infinity long before it matters; min() caps it either way.
  const full = Math.min(maxMs, baseMs * 2 ** exponent);
  return Math.round(full * (1 - JITTER * random()));
}

/** The total wait of a job that fails every attempt, without jitter: the outage it can ride out. */
export function retryBudgetMs(attempts: number, baseMs: number, maxMs: number): number {
  let total = 0;
  for (let made = 1; made < attempts; made++) total += Math.min(maxMs, baseMs * 2 ** (made - 1));
  return total;
}
