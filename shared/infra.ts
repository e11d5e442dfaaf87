/**
 * Builds the engines behind the small interfaces from configuration: embedded (SQLite, local
 * disk, in-process queue) or distributed (PostgreSQL, S3, BullMQ on Redis). The one place the
 * two modes differ.
 */
import type { Config } from './config.js';
import { createMemoryLimiter, createRedisLimiter, type RequestLimiter } from './limits/limiter.js';
import { loadPlanCatalog, type PlanCatalog } from './limits/plans.js';
import type { Logger } from './log.js';
import { processMetrics, type Metrics } from './metrics/catalogue.js';
import { LIMITS_KEY_BASE, namespacedRedisKey } from './naming.js';
import { closeRedis, createRedis, waitReady } from './queue/redis-connection.js';
import { databaseOptionsFromConfig } from './store/database.js';
import { createStore } from './store/kysely-store.js';
import type { AccountStore } from './store/types.js';

export function openAccountStore(config: Config): Promise<AccountStore> {
  return createStore(databaseOptionsFromConfig(config));
}

export { blobRetentionMs, openBlobStore } from './blob/open.js';

export const retentionMs = (config: Config): number => config.JOB_RETENTION_SECONDS * 1000;

/** The plan catalog: PLANS_FILE, or the spec's tables. */
export function openPlanCatalog(config: Config): PlanCatalog {
  return loadPlanCatalog(config.PLANS_FILE);
}

/** How long a starting API node waits for the limiter's Redis before it listens anyway (and answers 503 until Redis comes). */
const LIMITER_READY_MS = 10_000;

/**
 * Rate limits and quotas: in memory for one process (embedded), on Redis when REDIS_URL is set,
 * so limits hold across any number of API nodes.
 */
/** A limiter command may outlive its request's deadline this many times over before ioredis gives up on it. */
const LIMITER_COMMAND_TIMEOUT_FACTOR = 5;

export function openLimiter(
  config: Config,
  store: AccountStore,
  catalog: PlanCatalog,
  logger: Logger,
  metrics: Metrics = processMetrics(),
): {
  limiter: RequestLimiter;
  /** Settles when the counters can answer (at once in memory); rejects when Redis stays away past LIMITER_READY_MS. */
  ready: Promise<void>;
  close: () => Promise<void>;
} {
  const base = {
    catalog,
    store,
    logger,
    flushIntervalMs: config.USAGE_FLUSH_INTERVAL_MS,
    operationTimeoutMs: config.LIMITER_TIMEOUT_MS,
    metrics,
  };
  if (!config.REDIS_URL) {
    const limiter = createMemoryLimiter(base);
    return { limiter, ready: Promise.resolve(), close: () => limiter.close() };
  }
  // The limiter's own deadline (LIMITER_TIMEOUT_MS) answers the request; the command itself may
  // finish later, and must be allowed to, so a quota take that lands late is seen and given back
  // (shared/limits/limiter.ts). The connection's timeout only bounds a command Redis never answers.
  const redis = createRedis(config.REDIS_URL, 'limiter', {
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
