/**
 * Builds the engines behind the small interfaces from configuration: embedded (SQLite, local
 * disk, in-process queue) or distributed (PostgreSQL, S3, BullMQ on Redis). The one place the
 * two modes differ.
 */
import type { Config } from './config.js';
import { createMemoryLimiter } from './limits/limiter.js';
import { loadPlanCatalog, type PlanCatalog } from './limits/plans.js';
import type { OpenedLimiter } from './limits/types.js';
import type { Logger } from './log.js';
import { processMetrics, type Metrics } from './metrics/catalogue.js';
import { databaseOptionsFromConfig } from './store/database.js';
import { createStore, type KyselyAccountStore } from './store/kysely-store.js';
import type { AccountStore } from './store/types.js';

export function openAccountStore(config: Config): Promise<KyselyAccountStore> {
  return createStore(databaseOptionsFromConfig(config));
}

export { blobRetentionMs, openBlobStore } from './blob/open.js';

export const retentionMs = (config: Config): number => config.JOB_RETENTION_SECONDS * 1000;

/** The plan catalog: PLANS_FILE, or the contract's tables. */
export function openPlanCatalog(config: Config): PlanCatalog {
  return loadPlanCatalog(config.PLANS_FILE);
}

/**
 * Rate limits and quotas: in memory for one process (embedded), on Redis when Redis is configured,
 * so limits hold across any number of API nodes. Async because the Redis limiter, and ioredis
 * with it, is imported only then (open-redis-limiter.ts).
 */
export async function openLimiter(
  config: Config,
  store: AccountStore,
  catalog: PlanCatalog,
  logger: Logger,
  metrics: Metrics = processMetrics(),
): Promise<OpenedLimiter> {
  const base = {
    catalog,
    store,
    logger,
    flushIntervalMs: config.USAGE_FLUSH_INTERVAL_MS,
    operationTimeoutMs: config.LIMITER_TIMEOUT_MS,
    metrics,
  };
  if (config.redis === undefined) {
    const limiter = createMemoryLimiter(base);
    return { limiter, ready: Promise.resolve(), close: () => limiter.close() };
  }
  const { openRedisLimiter } = await import('./limits/open-redis-limiter.js');
  return openRedisLimiter(config.redis, config, base, logger);
}
