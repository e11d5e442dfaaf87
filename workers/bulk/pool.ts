/**
 * Workers' side of bulk jobs in distributed mode: one BullMQ Worker on the `bulk` queue, at
 * BULK_CONCURRENCY chunks at once (default 1), so a worker's interactive queues keep most of its
 * time. A chunk that fails (the blob store or Redis away) is retried alone by BullMQ; a worker
 * killed mid-chunk loses its lock and another takes that chunk over, and only it.
 */
import { Worker } from 'bullmq';
import type { BlobStore } from '../../shared/blob/types.js';
import { failChunk, runChunk, type ChunkProcessor } from '../../shared/bulk/chunks.js';
import { toJobError } from '../../shared/queue/execute.js';
import type { ChunkTask } from '../../shared/bulk/model.js';
import type { BulkStore } from '../../shared/bulk/store.js';
import type { Logger } from '../../shared/log.js';
import { BULK_QUEUE_NAME } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { closeRedis, createRedis, type RedisTarget } from '../../shared/queue/redis-connection.js';

export interface BulkWorkerOptions {
  connection: RedisTarget;
  prefix: string | undefined;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  store: BulkStore;
  blobs: BlobStore;
  process: ChunkProcessor;
  logger: Logger;
}

export function startBulkWorker(options: BulkWorkerOptions): { close(): Promise<void> } {
  const { logger } = options;
  const redis = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:bulk-worker' });
  const worker = new Worker<ChunkTask>(
    BULK_QUEUE_NAME,
    async (job) => {
      const task = job.data;
      // BullMQ counts every start, a takeover after a worker died included: the log shows which chunks ran again.
      logger.info({ bulkId: task.bulkId, chunk: task.index, attempt: job.attemptsStarted }, 'bulk chunk taken');
      try {
        return await runChunk(task, { store: options.store, blobs: options.blobs, process: options.process, logger });
      } catch (err) {
        logger.warn({ err, bulkId: task.bulkId, chunk: task.index, attempt: job.attemptsMade + 1 }, 'bulk chunk failed');
        // The last attempt (or an input that will never parse): the chunk's items become error
        // lines and the chunk counts as finished, so its job still completes (shared/bulk/chunks.ts).
        if (err instanceof SyntaxError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          await failChunk(task, toJobError(err), { store: options.store, blobs: options.blobs, logger });
          return 'failed';
        }
        throw err;
      }
    },
    {
      connection: redis,
      prefix: bullPrefixOf(options.prefix),
      concurrency: options.concurrency,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: options.maxStalledCount,
    },
  );
  worker.on('error', (err) => logger.warn({ err }, 'bulk worker error'));
  return {
    async close() {
      await worker.close();
      await closeRedis(redis);
    },
  };
}
