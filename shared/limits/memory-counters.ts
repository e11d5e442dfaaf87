/** Counters in process memory, for embedded mode (one API process). */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { CounterBackend, QuotaResult } from './counters.js';

/**
 * rate-limiter-flexible keeps the window counts; the limit is compared by the caller, because an
 * account's keys share one count while their limits differ (development keys run lower).
 */
const UNCAPPED_POINTS = Number.MAX_SAFE_INTEGER;

export function createMemoryCounters(): CounterBackend {
  const windows = new Map<number, RateLimiterMemory>();
  const days = new Map<string, { day: string; used: number }>();
  const seeding = new Map<string, Promise<void>>();

  const windowLimiter = (durationSec: number): RateLimiterMemory => {
    let rl = windows.get(durationSec);
    if (!rl) {
      rl = new RateLimiterMemory({ points: UNCAPPED_POINTS, duration: durationSec, keyPrefix: '' });
      windows.set(durationSec, rl);
    }
    return rl;
  };

  /** One seed per missing day counter, however many requests arrive while it is read. */
  const ensureDay = async (key: string, day: string, seed: () => Promise<number>): Promise<{ day: string; used: number }> => {
    let entry = days.get(key);
    while (!entry) {
      let pending = seeding.get(key);
      if (!pending) {
        pending = seed()
          .then((used) => {
            if (!days.has(key)) days.set(key, { day, used });
          })
          .finally(() => seeding.delete(key));
        seeding.set(key, pending);
      }
      await pending;
      entry = days.get(key);
    }
    return entry;
  };

  return {
    async hit(key, durationSec) {
      const res = await windowLimiter(durationSec).consume(key, 1);
      return res.consumedPoints;
    },
    async unhit(key, durationSec) {
      await windowLimiter(durationSec).reward(key, 1);
    },
    async peek(key, durationSec) {
      const res = await windowLimiter(durationSec).get(key);
      return res?.consumedPoints ?? 0;
    },
    async takeQuota(key, day, limit, seed): Promise<QuotaResult> {
      const entry = await ensureDay(key, day, seed);
      // From here to the return nothing awaits, so check and increment are one step.
      if (limit !== null && entry.used >= limit) return { allowed: false, used: entry.used };
      entry.used += 1;
      return { allowed: true, used: entry.used };
    },
    async peekQuota(key, day, seed) {
      return (await ensureDay(key, day, seed)).used;
    },
    forgetBefore(day) {
      for (const [key, entry] of days) if (entry.day < day) days.delete(key);
    },
    assertReady() {},
  };
}
