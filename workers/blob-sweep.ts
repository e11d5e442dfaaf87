/**
 * A worker's share of the blob sweep (shared/blob/sweep.ts) in distributed mode. Workers of the
 * file or stream queue run it, since they are the ones with the blob store in use; the live jobs
 * are read from Redis, and a lock on Redis lets one of them sweep at a time.
 */
import type { BlobStore } from '../shared/blob/types.js';
import { sweepBlobs } from '../shared/blob/sweep.js';
import type { BulkStore } from '../shared/bulk/store.js';
import { sweepBulkBlobs } from '../shared/bulk/sweep.js';
import { redisSweepClaim } from '../shared/blob/sweep-lock.js';
import { startBlobSweeper } from '../shared/blob/sweep-schedule.js';
import type { Config } from '../shared/config.js';
import { QUEUE_OF_KIND, type QueueName } from '../shared/jobs/contracts.js';
import type { Logger } from '../shared/log.js';
import { BLOB_SWEEP_LOCK_KEY, namespacedRedisKey } from '../shared/naming.js';
import { BullMqLiveBlobKeys } from '../shared/queue/live-blob-keys.js';
import { closeRedis, createRedis } from '../shared/queue/redis-connection.js';

export interface WorkerBlobSweepOptions {
  config: Pick<Config, 'redis' | 'QUEUE_PREFIX' | 'BLOB_RETENTION_SECONDS' | 'BLOB_SWEEP_INTERVAL_SECONDS' | 'BLOB_SWEEP_GRACE_SECONDS'>;
  blobs: BlobStore;
  /** The queues this worker consumes. */
  queues: readonly QueueName[];
  logger: Logger;
  /** Set on workers of the bulk queue: bulk jobs' blobs are swept after their retention too (shared/bulk/sweep.ts). */
  bulkStore?: Pick<BulkStore, 'get'>;
}

/**
 * The lock is held for 70 % of the interval: shorter than the shortest jittered wait (75 %), so
 * the sweeping worker never locks itself out, and long enough that N workers sweep about once
 * per interval rather than N times.
 */
const LOCK_SHARE_OF_INTERVAL = 0.7;

/** Starts the sweep, or returns undefined when this worker has no part in it. */
export function startWorkerBlobSweep(options: WorkerBlobSweepOptions): { close(): Promise<void> } | undefined {
  const { config, blobs, logger } = options;
  const usesBlobs =
    options.queues.includes(QUEUE_OF_KIND.file) || options.queues.includes(QUEUE_OF_KIND.stream) || options.bulkStore !== undefined;
  if (config.redis === undefined || config.BLOB_SWEEP_INTERVAL_SECONDS === 0 || !usesBlobs) return undefined;
  const intervalMs = config.BLOB_SWEEP_INTERVAL_SECONDS * 1000;
  const redis = createRedis(config.redis, 'producer', { logger, connectionName: 'sha224d:blob-sweep' });
  const live = new BullMqLiveBlobKeys({ redis, prefix: config.QUEUE_PREFIX, logger });
  const lockKey = namespacedRedisKey(config.QUEUE_PREFIX, BLOB_SWEEP_LOCK_KEY);
  const sweeper = startBlobSweeper({
    intervalMs,
    logger,
    claim: redisSweepClaim(redis, lockKey, Math.max(1, Math.floor(intervalMs * LOCK_SHARE_OF_INTERVAL))),
    sweep: async (signal) => {
      await sweepBlobs({
        blobs,
        liveBlobKeys: () => live.read(),
        retentionMs: config.BLOB_RETENTION_SECONDS * 1000,
        graceMs: config.BLOB_SWEEP_GRACE_SECONDS * 1000,
        logger,
        signal,
      });
      const bulkStore = options.bulkStore;
      if (bulkStore !== undefined)
        await sweepBulkBlobs({ blobs, store: bulkStore, graceMs: config.BLOB_SWEEP_GRACE_SECONDS * 1000, logger, signal });
    },
  });
  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        await sweeper.close();
        await live.close();
        await closeRedis(redis);
      })();
      return closing;
    },
  };
}
