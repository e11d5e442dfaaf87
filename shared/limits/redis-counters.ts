/** Counters in Redis, shared by every API node (distributed mode). */
import type { RedisClient } from '../redis/client-factory.js';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { UNCAPPED_POINTS, windowCounters, windowKeyLifetimeSec, type CounterBackend, type QuotaResult } from './counters.js';

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

/**
 * KEYS[1] day counter; ARGV[1] count; ARGV[2] TTL seconds; ARGV[3] seed or ''. Returns the count
 * after adding, or -1 when the counter is missing and no seed was given. Seeding and adding are one
 * script, so a counter another node creates meanwhile is added to, never overwritten.
 */
const DAY_ADD_LUA = `
if redis.call('exists', KEYS[1]) == 0 then
  if ARGV[3] == '' then return -1 end
  redis.call('set', KEYS[1], ARGV[3], 'EX', ARGV[2])
end
return redis.call('incrby', KEYS[1], ARGV[1])
`;

/** KEYS[1] day counter: one unit back, never below 0, never creating the key. */
const QUOTA_GIVE_BACK_LUA = `
local used = tonumber(redis.call('get', KEYS[1]) or '0')
if used > 0 then return redis.call('decr', KEYS[1]) end
return 0
`;

const QUOTA_COMMAND = 'sha224dQuotaTake';
const DAY_ADD_COMMAND = 'sha224dDayAdd';
const QUOTA_GIVE_BACK_COMMAND = 'sha224dQuotaGiveBack';

interface QuotaCommands {
  [QUOTA_COMMAND](key: string, limit: string, ttlSeconds: string, seed: string): Promise<[number, number]>;
  [DAY_ADD_COMMAND](key: string, count: string, ttlSeconds: string, seed: string): Promise<number>;
  [QUOTA_GIVE_BACK_COMMAND](key: string): Promise<number>;
}

export function createRedisCounters(redis: RedisClient): CounterBackend {
  redis.defineCommand(QUOTA_COMMAND, { numberOfKeys: 1, lua: QUOTA_TAKE_LUA });
  redis.defineCommand(DAY_ADD_COMMAND, { numberOfKeys: 1, lua: DAY_ADD_LUA });
  redis.defineCommand(QUOTA_GIVE_BACK_COMMAND, { numberOfKeys: 1, lua: QUOTA_GIVE_BACK_LUA });
  const commands = redis as unknown as QuotaCommands;
  const quotaTake = commands[QUOTA_COMMAND].bind(redis);
  const dayAdd = commands[DAY_ADD_COMMAND].bind(redis);
  const quotaGiveBack = commands[QUOTA_GIVE_BACK_COMMAND].bind(redis);
  const counters = windowCounters(
    (durationSec) =>
      new RateLimiterRedis({
        storeClient: redis,
        points: UNCAPPED_POINTS,
        duration: windowKeyLifetimeSec(durationSec),
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
    async giveBackQuota(key) {
      await quotaGiveBack(key);
    },
    async peekQuota(key, _day, seed) {
      const value = await redis.get(key);
      return value === null ? seed() : Number(value);
    },
    async addToDay(key, _day, count, seed) {
      const countArg = String(count);
      const ttl = String(DAY_TTL_SECONDS);
      if ((await dayAdd(key, countArg, ttl, '')) === -1) await dayAdd(key, countArg, ttl, String(await seed()));
    },
    forgetBefore() {},
    assertReady() {
      if (redis.status !== 'ready') throw new Error(`redis connection is ${redis.status}`);
    },
    remote: true,
  };
}
