/**
 * The producer's add path (bullmq-queue.ts): one job added with a given id — its owner or
 * idempotency key, then the BullMQ job — tried again with the same id while Redis fails over
 * (failover-retry.ts), and acknowledged once a replica holds it (shared/redis/replica-wait.ts).
 */
import type { JobsOptions } from 'bullmq';
import { QUEUE_OF_KIND, type JobKind, type JobPayloads, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { idempotencyRedisKey, namespacedRedisKey } from '../naming.js';
import type { RedisClient } from '../redis/client-factory.js';
import { replicaWaiter } from '../redis/replica-wait.js';
import { currentTrace, traceFields } from '../trace.js';
import { claimIdempotencyKey } from './bullmq-idempotency.js';
import { OWNER_KEY_SLACK_MS, type BullMqJobs } from './bullmq-jobs.js';
import type { BullJobData } from './bullmq-wire.js';
import { retryThroughFailover } from './failover-retry.js';
import { failFast, mapRedisError } from './redis-connection.js';
import type { SubmitOptions } from './types.js';
import type { WaitingBound } from './waiting-bound.js';

export interface BullMqAdderOptions {
  redis: RedisClient;
  jobs: BullMqJobs;
  bound: WaitingBound<QueueName>;
  logger: Logger;
  prefix: string | undefined;
  retentionMs: number;
  /** Options of every job added (attempts, backoff, retention). */
  jobOptions: JobsOptions;
  /** How long an add that met a Redis failover is retried with the same id (0: not retried). */
  failoverRetryMs: number;
  /** WAIT this long for one replica after each add (0: no WAIT). */
  replicaWaitMs: number;
}

export class BullMqAdder {
  /** WAIT for a replica after an add (replicaWaitMs > 0). */
  private readonly replicated: (() => Promise<number>) | undefined;

  constructor(private readonly options: BullMqAdderOptions) {
    const { replicaWaitMs, redis, jobs } = options;
    this.replicated = replicaWaitMs > 0 ? replicaWaiter(redis, jobs.ownerKey('slot'), replicaWaitMs) : undefined;
  }

  /** Adds job `id` (`replyTo`: the node channel its outcome goes to), through a failover; replicated before it is answered. */
  add<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    options: SubmitOptions,
    id: string,
    replyTo: string | undefined,
  ): Promise<{ id: string; created: boolean }> {
    return this.throughFailover(async () => {
      const outcome = await this.addOnce(kind, payload, options, id, replyTo);
      if (outcome.created) await this.awaitReplica();
      return outcome;
    });
  }

  /** Tries `attempt` again, same job id, while Redis fails over (failover-retry.ts). */
  throughFailover<T>(attempt: () => Promise<T>): Promise<T> {
    const { redis, logger, failoverRetryMs } = this.options;
    return retryThroughFailover(attempt, failoverRetryMs, (err) =>
      logger.debug({ err, status: redis.status }, 'job add met a Redis failover: retrying with the same id'),
    );
  }

  /** WAIT until a replica has the add (replica-wait.ts); a connection lost meanwhile makes the add retried. */
  async awaitReplica(): Promise<void> {
    if (this.replicated === undefined) return;
    try {
      await this.replicated();
    } catch (err) {
      throw mapRedisError(err);
    }
  }

  /** One attempt at adding a job with id `id`: its owner or idempotency key, then the BullMQ job. */
  private addOnce<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    options: SubmitOptions,
    id: string,
    replyTo: string | undefined,
  ): Promise<{ id: string; created: boolean }> {
    const queueName = QUEUE_OF_KIND[kind];
    const { retentionMs, prefix, redis, jobs, bound, jobOptions } = this.options;
    const ownerKey = jobs.ownerKey(id);
    return failFast(redis, async () => {
      let idemKey: string | undefined;
      if (options.idempotencyKey === undefined) {
        await bound.admit(queueName);
        await redis.set(ownerKey, queueName, 'PX', retentionMs + OWNER_KEY_SLACK_MS);
      } else {
        idemKey = namespacedRedisKey(prefix, idempotencyRedisKey(options.accountId, options.idempotencyKey));
        const existing = await claimIdempotencyKey(redis, jobs, {
          idemKey,
          id,
          fingerprint: options.fingerprint,
          queueName,
          retentionMs,
        });
        // Our own id: an earlier attempt of this add (failover-retry.ts) got the job in.
        if (existing !== undefined) return { id: existing, created: existing === id };
      }
      const data: BullJobData<K> = { kind, accountId: options.accountId, payload };
      const trace = traceFields(currentTrace());
      if (trace.requestId !== undefined || trace.traceparent !== undefined) data.trace = trace;
      if (replyTo !== undefined) data.replyTo = replyTo;
      if (options.webhook !== undefined) data.webhook = options.webhook;
      try {
        // A replay (above) is answered even while the queue is full; a new job is not.
        if (idemKey !== undefined) await bound.admit(queueName);
        const queue = await jobs.queueFor(queueName);
        await queue.add(kind, data, { ...jobOptions, jobId: id });
      } catch (err) {
        // A job that was not queued leaves nothing behind.
        await redis.del(...(idemKey === undefined ? [ownerKey] : [idemKey, ownerKey])).catch(() => undefined);
        throw err;
      }
      return { id, created: true };
    });
  }
}
