/**
 * Distributed mode's producer (issue 3 §1, §2): one BullMQ queue per QueueName, jobs run by
 * `startBullMqWorkers` in worker processes. Semantics match InProcessQueue; the contract suite in
 * test/queue/contract.ts runs against both.
 *
 * Synchronous waits never rely on BullMQ's QueueEvents (best-effort, trimmed) or
 * `waitUntilFinished` (races fast jobs, no TTL: bullmq#383, #1270, #2341). Instead workers publish
 * each finished job id on one Redis channel; `run` starts listening for its id before the job is
 * added, and reads the job's state itself when the message arrives, at 1 s, 2 s, 4 s, … (covering
 * a lost message), and once more at the deadline before answering JOB_TIMEOUT.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { ServiceError } from '../errors.js';
import { QUEUE_NAMES, QUEUE_OF_KIND, type JobKind, type JobPayloads, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { bullQueueName, idempotencyRedisKey, jobOwnerRedisKey, namespacedRedisKey } from '../naming.js';
import { bullPrefixOf, jobEventsChannel, mapState, parseFailedReason, type BullJob, type BullJobData, type JobFinishedMessage } from './bullmq-wire.js';
import { fromJobError, jobTimeout } from './execute.js';
import { closeRedis, createRedis, failFast } from './redis-connection.js';
import type { JobQueue, JobRecord, JobState, RunOptions, SubmitOptions } from './types.js';

export interface BullMqJobQueueOptions {
  /** REDIS_URL. */
  connection: string;
  /** How long finished jobs, their results and idempotency keys are kept. */
  retentionMs: number;
  logger: Logger;
  /** Namespace for every key and channel (tests, or two deployments on one Redis). Must match the workers'. */
  prefix?: string;
  /** Attempts for transient failures (default 5); permanent ones fail at the first. */
  attempts?: number;
  /** First retry delay, doubled per attempt (default 1000 ms). */
  backoffMs?: number;
}

/** Owner keys outlive the job's retention by this much, covering time spent queued. */
const OWNER_KEY_SLACK_MS = 24 * 3600 * 1000;
const FIRST_POLL_MS = 1000;
const MAX_POLL_MS = 5000;
const MAX_JOB_ID_LENGTH = 100;

/** Interest in one job id: `signal` resolves when its finished message arrives. */
interface Watch {
  signal: Promise<void>;
  /** A fresh `signal` for the next message. */
  rearm(): void;
  cancel(): void;
}

export class BullMqJobQueue implements JobQueue {
  private readonly options: Required<Omit<BullMqJobQueueOptions, 'prefix'>> & { prefix: string | undefined };
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<unknown>;
  private readonly queues = new Map<QueueName, Promise<Queue<BullJobData, JobResults[JobKind], JobKind>>>();
  /** Every Queue ever built, closed on shutdown even if it never became ready. */
  private readonly built = new Set<Queue<BullJobData, JobResults[JobKind], JobKind>>();
  private readonly finished = new EventEmitter();
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly jobOptions: JobsOptions;
  private closing: Promise<void> | undefined;

  constructor(options: BullMqJobQueueOptions) {
    this.options = { attempts: 5, backoffMs: 1000, ...options, prefix: options.prefix };
    const { retentionMs, attempts, backoffMs, prefix } = this.options;
    if (!Number.isInteger(retentionMs) || retentionMs < 1000) throw new RangeError('retentionMs must be an integer ≥ 1000');
    if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('attempts must be a positive integer');
    if (!Number.isInteger(backoffMs) || backoffMs < 0) throw new RangeError('backoffMs must be a non-negative integer');
    if (prefix !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) throw new RangeError('prefix must be 1-64 characters of [A-Za-z0-9_.-]');

    const keepFor = { age: Math.ceil(retentionMs / 1000) };
    this.jobOptions = {
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      removeOnComplete: keepFor,
      removeOnFail: keepFor,
    };
    this.finished.setMaxListeners(0);
    this.redis = createRedis(options.connection, 'producer', { logger: options.logger, connectionName: 'sha224d:producer' });
    this.subscriber = createRedis(options.connection, 'subscriber', { logger: options.logger, connectionName: 'sha224d:job-events' });
    this.subscriber.on('message', (channel: string, message: string) => this.onMessage(message));
    this.subscribed = this.subscriber.subscribe(jobEventsChannel(prefix));
    this.subscribed.catch((err: unknown) => options.logger.warn({ err }, 'job-events subscribe failed'));
  }

  async run<K extends JobKind>(kind: K, payload: JobPayloads[K], options: RunOptions): Promise<JobResults[K]> {
    const { timeoutMs } = options;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number');
    const deadline = Date.now() + timeoutMs;
    await failFast(this.redis, () => this.subscribed);
    const proposedId = randomUUID();
    // Listen before the job exists, so a job that finishes at once is not missed.
    let watch = this.watch(proposedId);
    try {
      const { id, created } = await this.submitWithId(kind, payload, options, proposedId);
      if (!created) {
        watch.cancel();
        watch = this.watch(id);
      }
      const record = await this.awaitFinished(id, watch, timeoutMs, deadline, !created);
      if (record.state === 'failed') throw fromJobError(record.error ?? { code: 'INTERNAL_ERROR', message: 'Internal error' });
      return record.result as JobResults[K];
    } finally {
      watch.cancel();
    }
  }

  submit<K extends JobKind>(kind: K, payload: JobPayloads[K], options: SubmitOptions): Promise<{ id: string; created: boolean }> {
    return this.submitWithId(kind, payload, options, randomUUID());
  }

  async get(id: string): Promise<JobRecord | undefined> {
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_JOB_ID_LENGTH || id.includes(':')) return undefined;
    return failFast(this.redis, async () => {
      const found = await this.findJob(id);
      return found === undefined ? undefined : this.toRecord(found.job, found.state);
    });
  }

  onFinished(listener: (jobId: string) => void): () => void {
    this.finished.on('finished', listener);
    return () => this.finished.off('finished', listener);
  }

  async ping(): Promise<void> {
    await failFast(this.redis, () => this.redis.ping());
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const queues = [...this.built];
    this.queues.clear();
    this.built.clear();
    const results = await Promise.allSettled([...queues.map((queue) => withinMs(queue.close(), 2000)), closeRedis(this.subscriber)]);
    await closeRedis(this.redis);
    for (const result of results) {
      if (result.status === 'rejected') this.options.logger.warn({ err: result.reason as unknown }, 'queue close step failed');
    }
    // Wake waiters: their next read fails fast with SERVICE_UNAVAILABLE.
    for (const id of [...this.watchers.keys()]) this.signal(id);
    this.finished.removeAllListeners();
  }

  private async submitWithId<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    options: SubmitOptions,
    id: string,
  ): Promise<{ id: string; created: boolean }> {
    if (this.closing) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is closed' });
    const queueName = QUEUE_OF_KIND[kind];
    const { retentionMs, prefix } = this.options;
    const ownerKey = namespacedRedisKey(prefix, jobOwnerRedisKey(id));
    return failFast(this.redis, async () => {
      let idemKey: string | undefined;
      if (options.idempotencyKey === undefined) {
        await this.redis.set(ownerKey, queueName, 'PX', retentionMs + OWNER_KEY_SLACK_MS);
      } else {
        idemKey = namespacedRedisKey(prefix, idempotencyRedisKey(options.accountId, options.idempotencyKey));
        const existing = await this.claimIdempotencyKey(idemKey, id, ownerKey, queueName);
        if (existing !== undefined) return { id: existing, created: false };
      }
      const queue = await this.queueFor(queueName);
      const data: BullJobData<K> = { kind, accountId: options.accountId, payload };
      try {
        await queue.add(kind, data, { ...this.jobOptions, jobId: id });
      } catch (err) {
        if (idemKey !== undefined) await this.redis.del(idemKey).catch(() => undefined);
        throw err;
      }
      return { id, created: true };
    });
  }

  /** SET NX the key to `id`; if another job holds it, that job's id. One round trip in the common case. */
  private async claimIdempotencyKey(idemKey: string, id: string, ownerKey: string, queueName: QueueName): Promise<string | undefined> {
    const { retentionMs } = this.options;
    for (let attempt = 0; attempt < 3; attempt++) {
      const replies = await this.redis
        .multi()
        .set(idemKey, id, 'PX', retentionMs, 'NX')
        .set(ownerKey, queueName, 'PX', retentionMs + OWNER_KEY_SLACK_MS)
        .exec();
      const claimed = replies?.[0]?.[1] === 'OK';
      if (claimed) return undefined;
      const existing = await this.redis.get(idemKey);
      if (existing !== null) {
        if ((await this.findJob(existing)) !== undefined) return existing;
        // The job it named is gone (removed or never added): the key is free again, as in InProcessQueue.
        await this.redis.del(idemKey);
      }
      // The holder expired or was released between SET and GET: claim again.
    }
    throw new ServiceError('CONFLICT', { details: 'idempotency key is being reused concurrently; retry' });
  }

  private queueFor(name: QueueName): Promise<Queue<BullJobData, JobResults[JobKind], JobKind>> {
    let pending = this.queues.get(name);
    if (pending === undefined) {
      const queue = new Queue<BullJobData, JobResults[JobKind], JobKind>(bullQueueName(name), {
        connection: this.redis,
        prefix: bullPrefixOf(this.options.prefix),
      });
      this.built.add(queue);
      queue.on('error', (err: Error) => this.options.logger.debug({ err, queue: name }, 'bullmq queue error'));
      pending = queue.waitUntilReady().then(() => queue);
      this.queues.set(name, pending);
      // A queue whose first connection failed stays broken in BullMQ: drop it and build another.
      pending.catch(() => {
        if (this.queues.get(name) === pending) this.queues.delete(name);
        this.built.delete(queue);
        queue.close().catch(() => undefined);
      });
    }
    return pending;
  }

  /**
   * The job's state, then its hash: read in that order, a finished state always comes with its
   * result or failedReason (the other order can pair a stale hash with a fresh "failed").
   */
  private async findJob(id: string): Promise<{ job: BullJob; state: JobState } | undefined> {
    const owner = await this.redis.get(namespacedRedisKey(this.options.prefix, jobOwnerRedisKey(id)));
    const hinted = QUEUE_NAMES.find((name) => name === owner);
    // No (or a stale) owner key: ids are unique across queues, so ask each.
    const candidates = hinted === undefined ? QUEUE_NAMES : [hinted, ...QUEUE_NAMES.filter((name) => name !== hinted)];
    for (const name of candidates) {
      const queue = await this.queueFor(name);
      const state = await queue.getJobState(id);
      if (state === 'unknown') continue;
      const job = await queue.getJob(id);
      if (job !== undefined) return { job, state: mapState(state) };
    }
    return undefined;
  }

  private toRecord(job: BullJob, state: JobState): JobRecord {
    const { kind, accountId, payload } = job.data;
    const record: JobRecord = { id: job.id ?? '', kind, accountId, state, payload, createdAt: job.timestamp };
    if (state === 'completed') record.result = job.returnvalue;
    if (state === 'failed') record.error = parseFailedReason(job.failedReason);
    if ((state === 'completed' || state === 'failed') && job.finishedOn !== undefined) record.finishedAt = job.finishedOn;
    return record;
  }

  /** The job's record if it has finished; undefined while queued or active. */
  private async readFinished(id: string): Promise<JobRecord | undefined> {
    const record = await this.get(id);
    if (record === undefined) throw new ServiceError('NOT_FOUND', { details: `job ${id} no longer exists` });
    return record.state === 'completed' || record.state === 'failed' ? record : undefined;
  }

  private async awaitFinished(id: string, watch: Watch, timeoutMs: number, deadline: number, checkFirst: boolean): Promise<JobRecord> {
    if (checkFirst) {
      const record = await this.readFinished(id);
      if (record) return record;
    }
    let pollMs = FIRST_POLL_MS;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const woken = await sleepUnless(watch.signal, Math.min(pollMs, remaining));
      const record = await this.readFinished(id);
      if (record) return record;
      if (woken) {
        // A message without a finished state (a stale duplicate); listen again.
        watch.rearm();
      } else {
        pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
      }
    }
    throw jobTimeout(id, timeoutMs);
  }

  private watch(id: string): Watch {
    let resolveCurrent: () => void = () => undefined;
    const arm = (): Promise<void> =>
      new Promise<void>((resolve) => {
        resolveCurrent = resolve;
      });
    const wake = (): void => resolveCurrent();
    let set = this.watchers.get(id);
    if (set === undefined) {
      set = new Set();
      this.watchers.set(id, set);
    }
    set.add(wake);
    const handle: Watch = {
      signal: arm(),
      rearm: () => {
        handle.signal = arm();
      },
      cancel: () => {
        const current = this.watchers.get(id);
        if (current === undefined) return;
        current.delete(wake);
        if (current.size === 0) this.watchers.delete(id);
      },
    };
    return handle;
  }

  private signal(id: string): void {
    const set = this.watchers.get(id);
    if (set) for (const wake of set) wake();
  }

  private onMessage(message: string): void {
    let parsed: Partial<JobFinishedMessage>;
    try {
      parsed = JSON.parse(message) as Partial<JobFinishedMessage>;
    } catch {
      return;
    }
    if (typeof parsed.id !== 'string') return;
    this.signal(parsed.id);
    this.finished.emit('finished', parsed.id);
  }
}

/** Settles as `promise` does, or rejects after `ms`. */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Resolves true when `signal` fires, false after `ms`. */
function sleepUnless(signal: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([signal.then(() => true), slept]).finally(() => clearTimeout(timer));
}
