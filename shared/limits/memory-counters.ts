/** Counters in process memory, for embedded mode (one API process). */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { UNCAPPED_POINTS, windowCounters, windowKeyLifetimeSec, type CounterBackend, type QuotaResult } from './counters.js';

export function createMemoryCounters(): CounterBackend {
  const days = new Map<string, { day: string; used: number }>();
  const seeding = new Map<string, Promise<void>>();

  const counters = windowCounters(
    (durationSec) => new RateLimiterMemory({ points: UNCAPPED_POINTS, duration: windowKeyLifetimeSec(durationSec), keyPrefix: '' }),
  );

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
    ...counters,
    async takeQuota(key, day, limit, seed): Promise<QuotaResult> {
      const entry = await ensureDay(key, day, seed);
      // From here to the return nothing awaits, so check and increment are one step.
      if (limit !== null && entry.used >= limit) return { allowed: false, used: entry.used };
      entry.used += 1;
      return { allowed: true, used: entry.used };
    },
    giveBackQuota(key) {
      const entry = days.get(key);
      if (entry && entry.used > 0) entry.used -= 1;
      return Promise.resolve();
    },
    async peekQuota(key, day, seed) {
      return (await ensureDay(key, day, seed)).used;
    },
    async addToDay(key, day, count, seed) {
      (await ensureDay(key, day, seed)).used += count;
    },
    forgetBefore(day) {
      for (const [key, entry] of days) if (entry.day < day) days.delete(key);
    },
    assertReady() {},
    remote: false,
  };
}
