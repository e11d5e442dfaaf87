/**
 * Builds the engines behind the small interfaces from configuration: embedded (SQLite, local
 * disk, in-process queue) or distributed (PostgreSQL, S3, BullMQ on Redis). The one place the
 * two modes differ.
 */
import path from 'node:path';
import { LocalDiskBlobStore } from './blob/local-disk.js';
import type { BlobStore } from './blob/types.js';
import type { Config } from './config.js';
import { createMemoryLimiter, createRedisLimiter, type RequestLimiter } from './limits/limiter.js';
import { loadPlanCatalog, type PlanCatalog } from './limits/plans.js';
import type { Logger } from './log.js';
import { LIMITS_KEY_BASE, namespacedRedisKey } from './naming.js';
import { closeRedis, createRedis } from './queue/redis-connection.js';
import { databaseOptionsFromConfig } from './store/database.js';
import { createStore } from './store/kysely-store.js';
import type { AccountStore } from './store/types.js';

export function openAccountStore(config: Config): Promise<AccountStore> {
  return createStore(databaseOptionsFromConfig(config));
}

/**
 * S3 when S3_ENDPOINT/S3_BUCKET are set; otherwise DATA_DIR/blobs (every node must share it).
 * The AWS SDK is imported only when used: it adds ~10 MB of RSS to embedded mode otherwise.
 */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (config.s3) {
    const { S3BlobStore } = await import('./blob/s3.js');
    return new S3BlobStore({ ...config.s3, forcePathStyle: true });
  }
  return new LocalDiskBlobStore(path.join(config.dataDir, 'blobs'));
}

export const retentionMs = (config: Config): number => config.JOB_RETENTION_SECONDS * 1000;
export const blobRetentionMs = (config: Config): number => config.BLOB_RETENTION_SECONDS * 1000;

/** The plan catalog: PLANS_FILE, or the spec's tables (issue 5 §1). */
export function openPlanCatalog(config: Config): PlanCatalog {
  return loadPlanCatalog(config.PLANS_FILE);
}

/**
 * Rate limits and quotas: in memory for one process (embedded), on Redis when REDIS_URL is set,
 * so limits hold across any number of API nodes.
 */
export function openLimiter(config: Config, store: AccountStore, catalog: PlanCatalog, logger: Logger): { limiter: RequestLimiter; close: () => Promise<void> } {
  const base = { catalog, store, logger, flushIntervalMs: config.USAGE_FLUSH_INTERVAL_MS };
  if (!config.REDIS_URL) {
    const limiter = createMemoryLimiter(base);
    return { limiter, close: () => limiter.close() };
  }
  const redis = createRedis(config.REDIS_URL, 'limiter', { logger, connectionName: 'sha224d:limiter' });
  const limiter = createRedisLimiter({ ...base, redis, keyPrefix: namespacedRedisKey(config.QUEUE_PREFIX, LIMITS_KEY_BASE) });
  return {
    limiter,
    close: async () => {
      await limiter.close();
      await closeRedis(redis);
    },
  };
}
