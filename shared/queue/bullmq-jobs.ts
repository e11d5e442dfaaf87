/**
 * The producer's view of its BullMQ queues: one Queue per QueueName, built on first use, and what
 * reads or removes a job by id — its record, its outcome, a bundle item's record, cancelling a job
 * no worker has taken, forgetting an answered one. Every job has an owner key naming its queue, so
 * a read by id asks one queue, not all of them (shared/naming.ts).
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis/client-factory.js';
import { ServiceError } from '../errors.js';
import { QUEUE_NAMES, QUEUE_OF_KIND, type JobKind, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { bullQueueName, jobOwnerRedisKey, namespacedRedisKey } from '../naming.js';
import {
  bundleItemId,
  bundleOutcomeOf,
  bullPrefixOf,
  isBundleData,
  mapState,
  parseFailedReason,
  type AnyBullJob,
  type BullBundleData,
  type BullData,
  type BullJob,
} from './bullmq-wire.js';
import { nextEvent, type JobOutcome, type Watch } from './job-waiters.js';
import { newQueue } from './bullmq-load.js';
import { failFast, isRedisUnavailable } from './redis-connection.js';
import type { JobRecord, JobState } from './types.js';

const FIRST_POLL_MS = 1000;
const MAX_POLL_MS = 5000;

/** Owner keys outlive the job's retention by this much, covering time spent queued. */
export const OWNER_KEY_SLACK_MS = 24 * 3600 * 1000;

export interface FoundJob {
  job: AnyBullJob;
  state: JobState;
}

export class BullMqJobs {
  private readonly queues = new Map<QueueName, Promise<Queue<BullData, unknown, string>>>();
  /** Every Queue ever built, closed on shutdown even if it never became ready. */
  private readonly built = new Set<Queue<BullData, unknown, string>>();
  private closed = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string | undefined,
    private readonly logger: Logger,
    /** How long a waiter's reads may fail while Redis fails over before it gives up (failover-retry.ts). */
    private readonly failoverRetryMs = 0,
  ) {}

  ownerKey(id: string): string {
    return namespacedRedisKey(this.prefix, jobOwnerRedisKey(id));
  }

  queueFor(name: QueueName): Promise<Queue<BullData, unknown, string>> {
    let pending = this.queues.get(name);
    if (pending === undefined) {
      let built: Queue<BullData, unknown, string> | undefined;
      // BullMQ itself is imported with the first queue (bullmq-load.ts).
      pending = newQueue<BullData>(bullQueueName(name), { connection: this.redis, prefix: bullPrefixOf(this.prefix) }).then((queue) => {
        built = queue;
        // Built after close() (its import was under way): closed at once, never left open.
        if (this.closed) return queue.close().then(() => Promise.reject(new ServiceError('SERVICE_UNAVAILABLE')));
        this.built.add(queue);
        queue.on('error', (err: Error) => this.logger.debug({ err, queue: name }, 'bullmq queue error'));
        return queue.waitUntilReady().then(() => queue);
      });
      this.queues.set(name, pending);
      // A queue whose first connection failed stays broken in BullMQ: drop it and build another.
      pending.catch(() => {
        if (this.queues.get(name) === pending) this.queues.delete(name);
        if (built === undefined) return;
        this.built.delete(built);
        built.close().catch(() => undefined);
      });
    }
    return pending;
  }

  /** Jobs of the queue no worker has taken: waiting, and delayed (a retry's backoff). One count script. */
  async untakenCount(name: QueueName): Promise<number> {
    const queue = await this.queueFor(name);
    return queue.getJobCountByTypes('wait', 'prioritized', 'delayed');
  }

  /**
   * The job's state, then its hash: read in that order, a finished state always comes with its
   * result or failedReason (the other order can pair a stale hash with a fresh "failed").
   */
  async findJob(id: string, queueHint?: QueueName): Promise<FoundJob | undefined> {
    const owner = queueHint ?? (await this.redis.get(this.ownerKey(id)));
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

  /** A job of its own (not a bundle) as GET /v2/jobs/{id} shows it. */
  async record(id: string): Promise<JobRecord | undefined> {
    const found = await this.findJob(id);
    return found === undefined || isBundleData(found.job.data) ? undefined : toRecord(found.job as BullJob, found.state);
  }

  /** A bundle item's record, from the bundle (GET /v2/jobs/{id} after JOB_TIMEOUT named it). */
  async bundleItemRecord(bundleId: string, index: number): Promise<JobRecord | undefined> {
    const found = await this.findJob(bundleId, QUEUE_OF_KIND.hash);
    if (found === undefined || !isBundleData(found.job.data)) return undefined;
    const { job, state } = found;
    const data = job.data as BullBundleData;
    const item = data.bundle[index];
    if (item === undefined) return undefined;
    const returned = state === 'completed' && Array.isArray(job.returnvalue) ? (job.returnvalue as unknown[])[index] : undefined;
    const outcome = data.answered?.[String(index)] ?? bundleOutcomeOf(returned);
    const base = {
      id: bundleItemId(bundleId, index),
      kind: item.kind,
      accountId: item.accountId,
      payload: item.payload,
      createdAt: job.timestamp,
    };
    const finishedAt = job.finishedOn === undefined ? {} : { finishedAt: job.finishedOn };
    if (outcome !== null && 'result' in outcome) return { ...base, state: 'completed', result: outcome.result, ...finishedAt } as JobRecord;
    if (outcome !== null) return { ...base, state: 'failed', error: outcome.error, ...finishedAt } as JobRecord;
    if (state === 'failed') return { ...base, state, error: parseFailedReason(job.failedReason), ...finishedAt } as JobRecord;
    if (state === 'completed') return { ...base, state: 'failed', error: parseFailedReason(undefined), ...finishedAt } as JobRecord;
    return { ...base, state } as JobRecord;
  }

  /** The job's outcome if it has finished; undefined while queued or active. */
  async readOutcome(id: string, queueHint: QueueName): Promise<JobOutcome | undefined> {
    const found = await failFast(this.redis, () => this.findJob(id, queueHint));
    if (found === undefined) throw new ServiceError('NOT_FOUND', { details: `job ${id} no longer exists` });
    const { job, state } = found;
    if (state === 'completed') return { state, result: job.returnvalue as JobResults[JobKind] };
    if (state === 'failed') return { state, error: parseFailedReason(job.failedReason) };
    return undefined;
  }

  /**
   * The job's outcome, from its message or, failing that, read at 1 s, 2 s, 4 s, … and at the
   * deadline; undefined at the deadline. `signal` (the caller is gone) cancels a job no worker
   * has taken, rejecting with its reason; a taken one is still waited for.
   */
  async awaitOutcome(
    id: string,
    queueName: QueueName,
    watch: Watch,
    deadline: number,
    signal: AbortSignal | undefined,
    checkFirst: boolean,
  ): Promise<JobOutcome | undefined> {
    if (checkFirst) {
      const outcome = await this.readOutcome(id, queueName);
      if (outcome) return outcome;
    }
    let pollMs = FIRST_POLL_MS;
    let callerGone = signal;
    // Since when reads have failed because Redis is away (a failover): tolerated for failoverRetryMs.
    let awaySince: number | undefined;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      const event = await nextEvent(watch.signal, callerGone, Math.min(pollMs, remaining));
      if (event.kind === 'message' && event.outcome !== undefined) return event.outcome;
      if (event.kind === 'aborted') {
        // The rejection goes nowhere but to the caller's own cleanup (an upload deletes its blob).
        if (await this.cancelUntaken(queueName, id)) throw signal?.reason as unknown;
        callerGone = undefined;
      }
      let outcome: JobOutcome | undefined;
      try {
        outcome = await this.readOutcome(id, queueName);
        awaySince = undefined;
      } catch (err) {
        awaySince ??= Date.now();
        if (!isRedisUnavailable(err) || Date.now() - awaySince >= this.failoverRetryMs) throw err;
        // Redis is failing over: the job goes on, and so does the wait (read again in a second).
        pollMs = FIRST_POLL_MS;
        if (event.kind === 'message') watch.rearm();
        continue;
      }
      if (outcome) return outcome;
      if (event.kind === 'message') {
        // A message without an outcome or a finished state (a stale duplicate); listen again.
        watch.rearm();
      } else if (event.kind === 'slept') {
        pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
      }
    }
  }

  /**
   * Removes a job no worker holds (BullMQ refuses to remove a locked, i.e. active, job: a started
   * job finishes). True if it was removed. A job that finished between the caller's last read and
   * this call is removed too; its caller is told to retry, and the work is done twice.
   */
  async cancelUntaken(queueName: QueueName, id: string, owned = true): Promise<boolean> {
    try {
      return await failFast(this.redis, async () => {
        const queue = await this.queueFor(queueName);
        if ((await queue.remove(id)) !== 1) return false;
        if (owned) await this.redis.del(this.ownerKey(id));
        return true;
      });
    } catch (err) {
      this.logger.warn({ err, jobId: id }, 'cancelling a job nobody waits for failed');
      return false;
    }
  }

  /** A synchronous job has been answered: nothing of it stays in Redis (else its retention removes it). */
  async forget(queueName: QueueName, id: string, owned = true): Promise<void> {
    try {
      await failFast(this.redis, async () => {
        const queue = await this.queueFor(queueName);
        await Promise.all([queue.remove(id), owned ? this.redis.del(this.ownerKey(id)) : undefined]);
      });
    } catch (err) {
      this.logger.warn({ err, jobId: id }, 'removing an answered synchronous job failed; its retention will');
    }
  }

  /** Closes every queue built, each within 2 s; the connection is the caller's. */
  close(): Promise<PromiseSettledResult<void>[]> {
    this.closed = true;
    const queues = [...this.built];
    this.queues.clear();
    this.built.clear();
    return Promise.allSettled(queues.map((queue) => withinMs(queue.close(), 2000)));
  }
}

function toRecord(job: BullJob, state: JobState): JobRecord {
  const { kind, accountId, payload } = job.data;
  const finished = state === 'completed' || state === 'failed';
  // The wire's data pairs kind and payload by construction (submit); the record says so to its readers.
  return {
    id: job.id ?? '',
    kind,
    accountId,
    state,
    payload,
    createdAt: job.timestamp,
    ...(state === 'completed' ? { result: job.returnvalue } : {}),
    ...(state === 'failed' ? { error: parseFailedReason(job.failedReason) } : {}),
    ...(finished && job.finishedOn !== undefined ? { finishedAt: job.finishedOn } : {}),
  } as JobRecord;
}

/** Settles as `promise` does, or rejects after `ms`. */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
