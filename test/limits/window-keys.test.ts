/**
 * A rate window's key lives past the end of its window whenever it was first hit, so a request
 * counted in a window but reaching Redis late still finds that window's count (counters.ts
 * windowKeyLifetimeSec). With a lifetime of one window from the first hit, a key first hit
 * mid-window expired mid-way through the next, and a late request started the count again.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisCounters } from '../../shared/limits/redis-counters.js';
import { createMemoryCounters } from '../../shared/limits/memory-counters.js';
import { connectRedis, deleteKeys, sleep, uniqueKeyBase } from './helpers.js';

let redis: Redis;
const base = uniqueKeyBase();

beforeAll(async () => {
  redis = await connectRedis();
});
afterAll(async () => {
  await deleteKeys(redis, base);
  await redis.quit();
});

describe('rate window keys', () => {
  it.each([1, 60])('on Redis, a %i s window key outlives a whole window from its first hit', async (durationSec) => {
    const counters = createRedisCounters(redis);
    const key = `${base}:w${durationSec}`;
    expect(await counters.hit(key, durationSec)).toBe(1);
    const ttlMs = await redis.pttl(key);
    expect(ttlMs).toBeGreaterThan(durationSec * 1000);
    expect(ttlMs).toBeLessThanOrEqual(2 * durationSec * 1000);
  });

  it('in memory, a hit one window after the first still counts in the same key', async () => {
    const counters = createMemoryCounters();
    const key = `${base}:memory`;
    expect(await counters.hit(key, 1)).toBe(1);
    // The lifetime starts at the first hit: 1.2 s later (the test's input, not a wait for an event)
    // a 1 s lifetime would have dropped the count.
    await sleep(1200);
    expect(await counters.hit(key, 1)).toBe(2);
  });
});
