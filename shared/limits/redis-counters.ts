/** Counters in Redis, shared by every API node (distributed mode). */
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { UNCAPPED_POINTS, windowCounters, type CounterBackend, type QuotaResult } from './counters.js';

/** Day counters outlive their day by a day, so usage of "yesterday" can still be read at 00:00. */
const DAY_TTL_SECONDS = 2 * 24 * 3600;

/**
 * KEYS[1] day counter; ARGV[1] limit (-1: none); ARGV[2] TTL seconds; ARGV[3] seed or ''.
 * Returns {1, used} accepted, {0, used} refused, {-1, 0} counter missing and no seed given.
 * Increment, check and undo run as one script, so no two nodes can both take the last unit.
 */
const QUOTA_TAKE_LUA = `
if redis.call('exists', KEYS[1]) == 0 then
  if ARGV[3] == '' then return {-1, 0} end
  redis.call('set', KEYS[1], ARGV[3], 'EX', ARGV[2])
end
local used = redis.call('incr', KEYS[1])
local limit = tonumber(ARGV[1])
if limit >= 0 and used > limit then
  redis.call('decr', KEYS[1])
  return {0, used - 1}
end
return {1, used}
`;

const QUOTA_COMMAND = 'sha224dQuotaTake';

interface QuotaCommand {
  [QUOTA_COMMAND](key: string, limit: string, ttlSeconds: string, seed: string): Promise<[number, number]>;
}

export function createRedisCounters(redis: Redis): CounterBackend {
  redis.defineCommand(QUOTA_COMMAND, { numberOfKeys: 1, lua: QUOTA_TAKE_LUA });
  const quotaTake = (redis as unknown as QuotaCommand)[QUOTA_COMMAND].bind(redis);
  const counters = windowCounters(
    (durationSec) =>
      new RateLimiterRedis({
        storeClient: redis,
        points: UNCAPPED_POINTS,
        duration: durationSec,
        keyPrefix: '',
        rejectIfRedisNotReady: true,
      }),
  );

  return {
    ...counters,
    async takeQuota(key, _day, limit, seed): Promise<QuotaResult> {
      const limitArg = String(limit ?? -1);
      const ttl = String(DAY_TTL_SECONDS);
      let [flag, used] = await quotaTake(key, limitArg, ttl, '');
      if (flag === -1) [flag, used] = await quotaTake(key, limitArg, ttl, String(await seed()));
      return { allowed: flag === 1, used };
    },
    async peekQuota(key, _day, seed) {
      const value = await redis.get(key);
      return value === null ? seed() : Number(value);
    },
    forgetBefore() {},
    assertReady() {
      if (redis.status !== 'ready') throw new Error(`redis connection is ${redis.status}`);
    },
  };
}
