/**
 * Distributed mode's chunk queue: BullMQ queue `sha224d-bulk`, apart from the interactive queues,
 * so operators size it on its own (workers/bulk/pool.ts) and a million-item job never waits in
 * front of a /v2/hash. A chunk's BullMQ job id is `<bulk id>-<index>`: queued twice, it runs once.
 */
import type { Queue } from 'bullmq';
import { newQueue } from '../queue/bullmq-load.js';
import { BULK_QUEUE_NAME } from '../naming.js';
import type { Logger } from '../log.js';
import { bullPrefixOf } from '../queue/bullmq-wire.js';
import { closeRedis, createRedis, type RedisTarget } from '../queue/redis-connection.js';
import { ServiceError } from '../errors.js';
import type { ChunkQueue } from './chunks.js';
import type { ChunkTask } from './model.js';

export interface BullMqChunkQueueOptions {
  connection: RedisTarget;
  prefix: string | undefined;
  logger: Logger;
  attempts: number;
  backoffMs: number;
  retentionMs: number;
}

export const chunkJobId = (task: Pick<ChunkTask, 'bulkId' | 'index'>): string => `${task.bulkId}-${task.index}`;

export class BullMqChunkQueue implements ChunkQueue {
  private readonly redis;
  private queue: Promise<Queue<ChunkTask, unknown, string>> | undefined;

  constructor(private readonly options: BullMqChunkQueueOptions) {
    this.redis = createRedis(options.connection, 'producer', {
      logger: options.logger,
      connectionName: 'sha224d:bulk-producer',
      lazy: true,
    });
  }

  /**
   * The queue, built (and BullMQ imported: shared/queue/bullmq-load.ts) on the first enqueue: an API
   * node opens this at start, and loading BullMQ then cost ~130 ms of CPU and ~10 MiB before its
   * first request (docs/decisions.md "Speed").
   */
  private built(): Promise<Queue<ChunkTask, unknown, string>> {
    this.queue ??= newQueue<ChunkTask>(BULK_QUEUE_NAME, { connection: this.redis, prefix: bullPrefixOf(this.options.prefix) }).then(
      (queue) => {
        queue.on('error', (err) => this.options.logger.warn({ err }, 'bulk queue error'));
        return queue;
      },
    );
    return this.queue;
  }

  async enqueue(tasks: readonly ChunkTask[]): Promise<void> {
    const keepFor = { age: Math.ceil(this.options.retentionMs / 1000) };
    const opts = {
      attempts: this.options.attempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs },
      removeOnComplete: true,
      removeOnFail: keepFor,
    };
    // addBulk in slices: one MULTI per slice keeps each Redis command small.
    for (let start = 0; start < tasks.length; start += 500) {
      const slice = tasks
        .slice(start, start + 500)
        .map((task) => ({ name: 'chunk', data: task, opts: { ...opts, jobId: chunkJobId(task) } }));
      try {
        await (await this.built()).addBulk(slice);
      } catch (err) {
        throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the bulk queue is unavailable', cause: err });
      }
    }
  }

  async close(): Promise<void> {
    const queue = await this.queue?.catch(() => undefined);
    await queue?.close();
    await closeRedis(this.redis);
  }
}
