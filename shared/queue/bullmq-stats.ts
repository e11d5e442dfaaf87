/**
 * The queue gauges of distributed mode (docs/operating.md "Catalogue": sha224d_queue_*), read from
 * BullMQ. Per queue and refresh: one count script, one paused flag, the oldest waiting id and its
 * timestamp, one CLIENT LIST for the workers: O(1) Redis calls per queue, and at most one refresh
 * per SCRAPE_CACHE_TTL_MS however many scrapers there are (shared/metrics/cached.ts).
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis/client-factory.js';
import { QUEUE_NAMES, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { cachedRefresh } from '../metrics/cached.js';
import type { Metrics } from '../metrics/catalogue.js';
import { setQueueFigures, type QueueFigures } from '../metrics/record.js';
import { bullQueueName } from '../naming.js';
import { newQueue } from './bullmq-load.js';
import { bullPrefixOf } from './bullmq-wire.js';
import { closeRedis, createRedis, failFast, type RedisTarget } from './redis-connection.js';

export interface BullMqQueueStatsOptions {
  /** The configured Redis (Config.redis), or a redis:// URL. */
  connection: RedisTarget;
  /** Namespace; must match the producer's and the workers'. */
  prefix?: string;
  logger: Logger;
  queues?: readonly QueueName[];
  now?: () => number;
}

export class BullMqQueueStats {
  private readonly redis: RedisClient;
  private readonly names: readonly QueueName[];
  /** Built at the first scrape: BullMQ is imported then, not at the node's start (bullmq-load.ts). */
  private queues: Promise<ReadonlyMap<QueueName, Queue>> | undefined;
  private readonly now: () => number;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: BullMqQueueStatsOptions) {
    this.now = options.now ?? Date.now;
    this.names = options.queues ?? QUEUE_NAMES;
    this.redis = createRedis(options.connection, 'producer', { logger: options.logger, connectionName: 'sha224d:queue-stats', lazy: true });
  }

  private built(): Promise<ReadonlyMap<QueueName, Queue>> {
    const prefix = bullPrefixOf(this.options.prefix);
    this.queues ??= Promise.all(
      this.names.map(async (name) => {
        const queue = await newQueue<unknown>(bullQueueName(name), { connection: this.redis, prefix });
        queue.on('error', (err: Error) => this.options.logger.debug({ err, queue: name }, 'queue stats error'));
        return [name, queue] as const;
      }),
    ).then((entries) => new Map(entries));
    return this.queues;
  }

  /** One queue's figures, read now (no cache). */
  async read(name: QueueName): Promise<QueueFigures> {
    if (!this.names.includes(name)) throw new RangeError(`queue "${name}" is not watched`);
    const queue = (await this.built()).get(name);
    if (queue === undefined) throw new RangeError(`queue "${name}" is not watched`);
    return failFast(this.redis, async () => {
      const [counts, paused, oldest, workers] = await Promise.all([
        queue.getJobCounts('wait', 'active', 'delayed', 'failed'),
        queue.isPaused(),
        queue.getRanges(['wait'], 0, 0, true),
        queue.getWorkersCount(),
      ]);
      const waiting = counts.wait ?? 0;
      let age = 0;
      const oldestId = oldest[0];
      if (waiting > 0 && oldestId !== undefined) {
        const timestamp = Number(await this.redis.hget(queue.toKey(oldestId), 'timestamp'));
        if (Number.isFinite(timestamp) && timestamp > 0) age = Math.max(0, (this.now() - timestamp) / 1000);
      }
      return {
        counts: {
          waiting,
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          failed: counts.failed ?? 0,
          // BullMQ 6 keeps a paused queue's jobs in its wait list: they are waiting, and held.
          paused: paused ? waiting : 0,
        },
        oldestWaitingAgeSeconds: age,
        workers,
      };
    });
  }

  /**
   * A scrape-time collector of every watched queue's gauges. A queue that cannot be read keeps its
   * last figures; sha224d_dependency_up{dependency="redis"} says why (the node's own probe).
   */
  collector(metrics: Metrics): () => Promise<void> {
    return cachedRefresh(async () => {
      const results = await Promise.allSettled(this.names.map(async (name) => [name, await this.read(name)] as const));
      for (const result of results) {
        if (result.status === 'fulfilled') setQueueFigures(metrics, result.value[0], result.value[1]);
        else this.options.logger.debug({ err: result.reason as unknown }, 'queue stats: Redis did not answer');
      }
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const queues = await this.queues?.catch(() => undefined);
      await Promise.allSettled([...(queues?.values() ?? [])].map((queue) => queue.close()));
      await closeRedis(this.redis);
    })();
    return this.closing;
  }
}
