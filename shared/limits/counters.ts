/**
 * Where the limiter's counters live: process memory (embedded mode) or Redis (distributed mode,
 * shared by every API node). Both count rate windows with rate-limiter-flexible and keep the daily
 * count exact: check and increment are one step (a Lua script in Redis, one synchronous step in
 * memory), so the day's count always equals the requests accepted.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface QuotaResult {
  allowed: boolean;
  /** The day's count after this request (or unchanged, when refused). */
  used: number;
}

export interface CounterBackend {
  /** Add one to a rate window's counter; returns the count after adding. */
  hit(key: string, durationSec: number): Promise<number>;
  /** Take back a hit of a refused request. */
  unhit(key: string, durationSec: number): Promise<void>;
  /** A rate window's count, 0 when absent. */
  peek(key: string, durationSec: number): Promise<number>;
  /**
   * Add one to the day's counter unless that would pass `limit` (null: no limit). A missing
   * counter starts from `seed()` (the store's figure), so losing the counters never resets a day.
   */
  takeQuota(key: string, day: string, limit: number | null, seed: () => Promise<number>): Promise<QuotaResult>;
  peekQuota(key: string, day: string, seed: () => Promise<number>): Promise<number>;
  /** Take back one unit of a day's counter (a take whose answer came too late to use); never below 0. */
  giveBackQuota(key: string, day: string): Promise<void>;
  /**
   * Add `count` to the day's counter with no limit: the batched counts of plans without a daily
   * quota (day-count-batch.ts). A missing counter starts from `seed()` first, as in takeQuota.
   */
  addToDay(key: string, day: string, count: number, seed: () => Promise<number>): Promise<void>;
  /** Drop day counters older than `day` (memory only; Redis keys expire). */
  forgetBefore(day: string): void;
  /** Fail now, before any I/O, when the backend is known to be unreachable. */
  assertReady(): void;
  /**
   * Whether an operation waits on a network peer and so needs a deadline. In memory it settles
   * within the same tick (or a store read for the day's seed, bounded by the store itself).
   */
  readonly remote: boolean;
}

/**
 * rate-limiter-flexible keeps the window counts with no cap of its own: the limit is compared by
 * the caller, because an account's keys share one count while their limits differ.
 */
export const UNCAPPED_POINTS = Number.MAX_SAFE_INTEGER;

/**
 * Window keys carry their window's index, so their lifetime only has to outlast the window; but
 * rate-limiter-flexible starts it at the key's first hit. A key first hit mid-window would expire
 * mid-way through the next one, and a request counted in its window but reaching Redis late (a
 * loaded node) would find the key gone and start again from 1: a 21st acceptance under a limit of
 * 20. Two windows' lifetime covers any hit of the window.
 */
export function windowKeyLifetimeSec(durationSec: number): number {
  return 2 * durationSec;
}

/** hit/unhit/peek over one rate-limiter-flexible limiter per window length, memory or Redis alike. */
export function windowCounters(create: (durationSec: number) => RateLimiterAbstract): Pick<CounterBackend, 'hit' | 'unhit' | 'peek'> {
  const windows = new Map<number, RateLimiterAbstract>();
  const windowLimiter = (durationSec: number): RateLimiterAbstract => {
    let rl = windows.get(durationSec);
    if (!rl) {
      rl = create(durationSec);
      windows.set(durationSec, rl);
    }
    return rl;
  };
  return {
    async hit(key, durationSec) {
      return (await windowLimiter(durationSec).consume(key, 1)).consumedPoints;
    },
    async unhit(key, durationSec) {
      await windowLimiter(durationSec).reward(key, 1);
    },
    async peek(key, durationSec) {
      return (await windowLimiter(durationSec).get(key))?.consumedPoints ?? 0;
    },
  };
}
