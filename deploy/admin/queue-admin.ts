/**
 * The operator's view of distributed mode's BullMQ queues (shared/queue/bullmq-queue.ts): counts,
 * pause and resume, one job by id, the latest failures, retry, remove and clean. Queue names and key prefixes come
 * from shared/naming.ts and bullPrefixOf, as the API nodes and workers build them, so the CLI sees
 * the same queues as long as it is given the same REDIS_URL and QUEUE_PREFIX.
 */
import { Queue } from 'bullmq';
import { buildRedisClient, type RedisClient } from '../../shared/redis/client-factory.js';
import { topologyOf, type RedisTarget } from '../../shared/redis/topology.js';
import { closeRedis } from '../../shared/queue/redis-connection.js';
import { QUEUE_NAMES, type JobKind, type JobResults, type QueueName } from '../../shared/jobs/contracts.js';
import { bullQueueName, jobOwnerRedisKey, namespacedRedisKey } from '../../shared/naming.js';
import { bullPrefixOf, type BullJob, type BullJobData } from '../../shared/queue/bullmq-wire.js';

type AdminQueue = Queue<BullJobData, JobResults[JobKind], JobKind>;

export interface QueueSummary {
  queue: QueueName;
  /** Jobs waiting for a worker (including those held by a pause). */
  waiting: number;
  active: number;
  /** Jobs waiting for a retry's backoff to end. */
  delayed: number;
  failed: number;
  completed: number;
  /** Seconds since the oldest waiting job was added; null when none waits. */
  oldestWaitingSeconds: number | null;
  paused: boolean;
}

/** A job's BullMQ state as BullMQ names it (waiting, active, delayed, completed, failed, …). */
export interface FoundJob {
  queue: QueueName;
  state: string;
  job: BullJob;
}

/** A failure the operator caused (wrong state, unknown id): reported as one line, exit 1. */
export class QueueAdminError extends Error {
  override name = 'QueueAdminError';
}

/** A job of `queue` (for lists across queues). */
export interface QueuedJob {
  queue: QueueName;
  job: BullJob;
}

const CONNECT_TIMEOUT_MS = 3000;
const MAX_JOB_ID_LENGTH = 100;
/** `retryAllFailed` works through this many jobs at once. */
const RETRY_BATCH = 50;

export class QueueAdmin {
  private readonly redis: RedisClient;
  private readonly queues = new Map<QueueName, AdminQueue>();
  private closing: Promise<void> | undefined;

  private constructor(
    redis: RedisClient,
    private readonly prefix: string | undefined,
  ) {
    this.redis = redis;
  }

  /** Connects to `target`; rejects (without retrying for long) when Redis cannot be reached. */
  static async open(target: RedisTarget, prefix: string | undefined): Promise<QueueAdmin> {
    const redis = buildRedisClient(topologyOf(target), {
      options: { lazyConnect: true, connectTimeout: CONNECT_TIMEOUT_MS, maxRetriesPerRequest: 1 },
      // A CLI run is short: two reconnects, then give up rather than hang.
      retryStrategy: (times) => (times > 2 ? null : 200),
      sharded: false,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      throw new Error(`Redis is unreachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return new QueueAdmin(redis, prefix);
  }

  async summaries(now = Date.now()): Promise<QueueSummary[]> {
    return Promise.all(QUEUE_NAMES.map((name) => this.summary(name, now)));
  }

  async summary(name: QueueName, now = Date.now()): Promise<QueueSummary> {
    const queue = this.queue(name);
    const [counts, paused, oldest] = await Promise.all([
      queue.getJobCounts('wait', 'prioritized', 'waiting-children', 'active', 'delayed', 'failed', 'completed'),
      queue.isPaused(),
      // `asc`: each state's oldest job first; one per state, the oldest of them is taken below.
      queue.getJobs(['wait', 'prioritized'], 0, 0, true),
    ]);
    const count = (state: string): number => counts[state] ?? 0;
    const firstAdded = Math.min(...oldest.map((job) => job.timestamp));
    return {
      queue: name,
      waiting: count('wait') + count('prioritized') + count('waiting-children'),
      active: count('active'),
      delayed: count('delayed'),
      failed: count('failed'),
      completed: count('completed'),
      oldestWaitingSeconds: Number.isFinite(firstAdded) ? Math.max(0, Math.floor((now - firstAdded) / 1000)) : null,
      paused,
    };
  }

  /** Workers stop taking jobs from the queue (jobs already running finish); new jobs still queue. */
  async pause(name: QueueName): Promise<void> {
    await this.queue(name).pause();
  }

  async resume(name: QueueName): Promise<void> {
    await this.queue(name).resume();
  }

  /** The job with this id, in whichever queue holds it. */
  async find(id: string): Promise<FoundJob | undefined> {
    if (id.length === 0 || id.length > MAX_JOB_ID_LENGTH || id.includes(':')) return undefined;
    const owner = await this.redis.get(this.ownerKey(id));
    const hinted = QUEUE_NAMES.find((name) => name === owner);
    const candidates = hinted === undefined ? QUEUE_NAMES : [hinted, ...QUEUE_NAMES.filter((name) => name !== hinted)];
    for (const name of candidates) {
      const queue = this.queue(name);
      const state = await queue.getJobState(id);
      if (state === 'unknown') continue;
      const job = await queue.getJob(id);
      if (job !== undefined) return { queue: name, state, job };
    }
    return undefined;
  }

  /** Runs a failed job again with its full number of attempts; its result replaces the failure. */
  async retry(id: string): Promise<FoundJob> {
    const found = await this.require(id);
    if (found.state !== 'failed') throw new QueueAdminError(`Job ${id} is ${found.state}; only failed jobs can be retried`);
    await found.job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return found;
  }

  /**
   * The `limit` jobs that failed last across `names`, newest first. BullMQ scores its failed set by
   * finish time, so each queue yields its newest `limit` in one call and the lists are merged.
   */
  async failed(names: readonly QueueName[], limit: number): Promise<QueuedJob[]> {
    const lists = await Promise.all(
      names.map(async (queue) => (await this.queue(queue).getJobs(['failed'], 0, limit - 1, false)).map((job) => ({ queue, job }))),
    );
    return lists
      .flat()
      .sort((a, b) => (b.job.finishedOn ?? 0) - (a.job.finishedOn ?? 0))
      .slice(0, limit);
  }

  /**
   * Runs every job failed in `name` at the call again, each with its full number of attempts (as
   * `retry`). A job that left the failed state meanwhile (retried by another operator, removed,
   * expired) is skipped; jobs failing after the call are left for the next one.
   */
  async retryAllFailed(name: QueueName): Promise<{ retried: number; skipped: number }> {
    const queue = this.queue(name);
    const ids = await queue.getRanges(['failed'], 0, -1, true);
    let retried = 0;
    for (let i = 0; i < ids.length; i += RETRY_BATCH) {
      const outcomes = await Promise.all(
        ids.slice(i, i + RETRY_BATCH).map(async (id) => {
          const job = await queue.getJob(id);
          if (job === undefined || (await job.getState()) !== 'failed') return false;
          await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
          return true;
        }),
      );
      retried += outcomes.filter(Boolean).length;
    }
    return { retried, skipped: ids.length - retried };
  }

  /** Deletes a job that is not running (a running one holds a lock that only its worker may release). */
  async remove(id: string): Promise<FoundJob> {
    const found = await this.require(id);
    if (found.state === 'active') throw new QueueAdminError(`Job ${id} is active; it cannot be removed while a worker runs it`);
    await this.queue(found.queue).remove(id);
    await this.redis.del(this.ownerKey(id));
    return found;
  }

  /** Deletes completed and failed jobs that finished more than `olderThanMs` ago; counts per state. */
  async clean(name: QueueName, olderThanMs: number): Promise<{ completed: number; failed: number }> {
    const queue = this.queue(name);
    const completed = await queue.clean(olderThanMs, 0, 'completed');
    const failed = await queue.clean(olderThanMs, 0, 'failed');
    return { completed: completed.length, failed: failed.length };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
      // QUIT, or a disconnect behind Sentinel (which rejects QUIT) or when Redis is away.
      await closeRedis(this.redis);
    })();
    return this.closing;
  }

  private async require(id: string): Promise<FoundJob> {
    const found = await this.find(id);
    if (found === undefined) throw new QueueAdminError(`No job ${id}`);
    return found;
  }

  private ownerKey(id: string): string {
    return namespacedRedisKey(this.prefix, jobOwnerRedisKey(id));
  }

  private queue(name: QueueName): AdminQueue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new Queue<BullJobData, JobResults[JobKind], JobKind>(bullQueueName(name), {
        connection: this.redis,
        prefix: bullPrefixOf(this.prefix),
      });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }
}
