/**
 * The limiter of distributed mode (Redis configured): counters on Redis, so limits hold across any
 * number of API nodes. A module of its own so that only such a process loads ioredis
 * (shared/infra.ts imports it dynamically); embedded mode counts in memory.
 */
import type { Config } from '../config.js';
import type { OpenedLimiter } from './types.js';
import type { Logger } from '../log.js';
import { LIMITS_KEY_BASE, namespacedRedisKey } from '../naming.js';
import { closeRedis, createRedis, waitReady, type RedisTarget } from '../queue/redis-connection.js';
import { createRedisLimiter, type LimiterOptions } from './limiter.js';

/** How long a starting API node waits for the limiter's Redis before it listens anyway (and answers 503 until Redis comes). */
const LIMITER_READY_MS = 10_000;

/** A limiter command may outlive its request's deadline this many times over before ioredis gives up on it. */
const LIMITER_COMMAND_TIMEOUT_FACTOR = 5;

export function openRedisLimiter(
  target: RedisTarget,
  config: Pick<Config, 'LIMITER_TIMEOUT_MS' | 'QUEUE_PREFIX'>,
  base: LimiterOptions,
  logger: Logger,
): OpenedLimiter {
  // The limiter's own deadline (LIMITER_TIMEOUT_MS) answers the request; the command itself may
  // finish later, and must be allowed to, so a quota take that lands late is seen and given back
  // (shared/limits/consume.ts). The connection's timeout only bounds a command Redis never answers.
  const redis = createRedis(target, 'limiter', {
    logger,
    connectionName: 'sha224d:limiter',
    commandTimeoutMs: LIMITER_COMMAND_TIMEOUT_FACTOR * config.LIMITER_TIMEOUT_MS,
  });
  const limiter = createRedisLimiter({ ...base, redis, keyPrefix: namespacedRedisKey(config.QUEUE_PREFIX, LIMITS_KEY_BASE) });
  return {
    limiter,
    ready: waitReady(redis, LIMITER_READY_MS),
    close: async () => {
      await limiter.close();
      await closeRedis(redis);
    },
  };
}
