/**
 * The bulk engines of a node: memory and an in-process chunk runner in embedded mode, Redis and
 * the `bulk` BullMQ queue in distributed mode. The Redis and BullMQ modules load only there
 * (test/deploy/bundle-imports.test.ts).
 */
import type { BlobStore } from '../blob/types.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { InProcessChunkQueue, type ChunkProcessor, type ChunkQueue } from './chunks.js';
import { MemoryBulkStore, type BulkStore } from './store.js';

export interface BulkEngines {
  store: BulkStore;
  chunks: ChunkQueue;
}

type BulkConfig = Pick<Config, 'redis' | 'QUEUE_PREFIX' | 'JOB_RETENTION_SECONDS' | 'JOB_ATTEMPTS' | 'JOB_BACKOFF_MS' | 'BULK_CONCURRENCY'>;

/** Embedded mode: chunks run in this process through `process` (workers/bulk/process.ts). */
export function openEmbeddedBulk(config: BulkConfig, blobs: BlobStore, logger: Logger, process: ChunkProcessor): BulkEngines {
  const store = new MemoryBulkStore(config.JOB_RETENTION_SECONDS * 1000);
  const chunks = new InProcessChunkQueue({
    store,
    blobs,
    process,
    logger,
    concurrency: config.BULK_CONCURRENCY,
    attempts: config.JOB_ATTEMPTS,
    retryDelayMs: config.JOB_BACKOFF_MS,
  });
  return { store, chunks };
}

/** The Redis store alone: what workers need (they only count chunks). */
export async function openRedisBulkStore(config: BulkConfig, logger: Logger): Promise<BulkStore> {
  const redis = config.redis;
  if (redis === undefined) throw new Error('the Redis bulk store needs Redis');
  const [{ createRedis }, { RedisBulkStore }] = await Promise.all([import('../queue/redis-connection.js'), import('./redis-store.js')]);
  return new RedisBulkStore(
    createRedis(redis, 'producer', { logger, connectionName: 'sha224d:bulk', lazy: true }),
    config.QUEUE_PREFIX,
    config.JOB_RETENTION_SECONDS * 1000,
  );
}

/** Distributed mode's API node: the Redis store and the producer of the `bulk` queue. */
export async function openDistributedBulk(config: BulkConfig, logger: Logger): Promise<BulkEngines> {
  const redis = config.redis;
  if (redis === undefined) throw new Error('distributed bulk jobs need Redis');
  const { BullMqChunkQueue } = await import('./bullmq-chunks.js');
  return {
    store: await openRedisBulkStore(config, logger),
    chunks: new BullMqChunkQueue({
      connection: redis,
      prefix: config.QUEUE_PREFIX,
      logger,
      attempts: config.JOB_ATTEMPTS,
      backoffMs: config.JOB_BACKOFF_MS,
      retentionMs: config.JOB_RETENTION_SECONDS * 1000,
    }),
  };
}
