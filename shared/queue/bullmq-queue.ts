/**
 * Distributed mode's producer (§2): one BullMQ queue per QueueName, jobs run by
 * `startBullMqWorkers` in worker processes. Semantics match InProcessQueue; the contract suite in
 * test/queue/contract.ts runs against both.
 *
 * Synchronous waits never rely on BullMQ's QueueEvents (best-effort, trimmed) or
 * `waitUntilFinished` (races fast jobs, no TTL). Each producer (API node) has a channel of its own;
 * a job `run` submits names it (`replyTo`), and the worker publishes the outcome there, so the
 * waiter answers from the message alone and no other node hears it. `run` listens before the job
 * is added; it reads the job's state itself only at 1 s, 2 s, 4 s, … (a lost message) and once more
 * at the deadline, or when a message came without an outcome (a worker that predates `replyTo`).
 * Async jobs are announced by id on the shared channel every node listens to (onFinished): a
 * socket.io subscriber may sit on any node (api/realtime/job-pushes.ts).
 *
 * Synchronous hash, hmac and verify jobs without an idempotency key that arrive in one event-loop
 * turn go as one bundle per queue (runBundled): one BullMQ job and one reply for the turn, each item
 * answered, failed, retried, timed out and cancelled as a job of its own would be.
 *
 * A synchronous job leaves nothing in Redis once answered, unless it has an idempotency key; one
 * still queued at its deadline, or when its caller is gone, is removed and never runs. Each queue
 * holds at most `maxWaiting` untaken jobs (waiting-bound.ts). docs/decisions.md "Jobs and modes".
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { ServiceError } from '../errors.js';
import { QUEUE_NAMES, QUEUE_OF_KIND, type JobKind, type JobPayloads, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { bullQueueName, idempotencyRedisKey, jobOwnerRedisKey, namespacedRedisKey } from '../naming.js';
import {
  BUNDLE_JOB_NAME,
  bundleItemId,
  bundleOutcomeOf,
  bullPrefixOf,
  isBundleData,
  isBundleKind,
  jobEventsChannel,
  mapState,
  nodeEventsChannel,
  parseBundleItemId,
  parseBundleMessage,
  parseFailedReason,
  parseJobFinishedMessage,
  type AnyBullJob,
  type BullBundleData,
  type BullData,
  type BullJob,
  type BullJobData,
  type BundleItem,
  type BundleKind,
} from './bullmq-wire.js';
import { currentTrace, traceFields } from '../trace.js';
import { fromJobError, jobNotStarted, jobTimeout } from './execute.js';
import { assertSameRequest, decodeIdempotencyRecord, encodeIdempotencyRecord } from './idempotency.js';
import {
  allAborted,
  BundleCollector,
  DEFAULT_BUNDLE_MAX_ITEMS,
  settle,
  settleWith,
  type BundledRun,
  type OpenBundle,
} from './bundle-collector.js';
import { JobWaiters, nextEvent, outcomeOf, type JobOutcome, type Watch } from './job-waiters.js';
import { closeRedis, createRedis, failFast } from './redis-connection.js';
import { cappedBackoff, DEFAULT_RETRY_POLICY } from './retry-policy.js';
import type { JobQueue, JobRecord, JobState, RunOptions, SubmitOptions } from './types.js';
import { DEFAULT_MAX_WAITING, WaitingBound } from './waiting-bound.js';

export interface BullMqJobQueueOptions {
  /** REDIS_URL. */
  connection: string;
  /** How long finished jobs, their results and idempotency keys are kept. */
  retentionMs: number;
  logger: Logger;
  /** Namespace for every key and channel (tests, or two deployments on one Redis). Must match the workers'. */
  prefix?: string;
  /** Attempts for transient failures (JOB_ATTEMPTS, default 10); permanent ones fail at the first. */
  attempts?: number;
  /** First retry delay, doubled per attempt up to the workers' cap (JOB_BACKOFF_MS, default 1000 ms). */
  backoffMs?: number;
  /** Jobs a queue may hold that no worker has taken (QUEUE_MAX_WAITING, default 10,000); 0: unbounded. */
  maxWaiting?: number;
  /** Most synchronous small jobs one bundle carries (default 64); 1 sends each as a job of its own. */
  bundleMaxItems?: number;
}

/** Owner keys outlive the job's retention by this much, covering time spent queued. */
const OWNER_KEY_SLACK_MS = 24 * 3600 * 1000;
const FIRST_POLL_MS = 1000;
const MAX_POLL_MS = 5000;
const MAX_JOB_ID_LENGTH = 100;

export class BullMqJobQueue implements JobQueue {
  private readonly options: Required<Omit<BullMqJobQueueOptions, 'prefix'>> & { prefix: string | undefined };
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<unknown>;
  private readonly queues = new Map<QueueName, Promise<Queue<BullData, unknown, string>>>();
  /** Every Queue ever built, closed on shutdown even if it never became ready. */
  private readonly built = new Set<Queue<BullData, unknown, string>>();
  private readonly finished = new EventEmitter();
  private readonly waiters = new JobWaiters();
  /** This node's channel: where the outcomes of the jobs `run` submits are published. */
  private readonly nodeChannel: string;
  private readonly bound: WaitingBound<QueueName>;
  private readonly jobOptions: JobsOptions;
  /** Bundles being filled in this event-loop turn, by queue and timeout; sent on setImmediate. */
  private readonly collector: BundleCollector;
  /** Sent bundles' runs by bundle id, for their messages (partial outcomes). */
  private readonly sentBundles = new Map<string, BundledRun[]>();
  private closing: Promise<void> | undefined;

  constructor(options: BullMqJobQueueOptions) {
    this.options = {
      attempts: DEFAULT_RETRY_POLICY.attempts,
      backoffMs: DEFAULT_RETRY_POLICY.backoffMs,
      maxWaiting: DEFAULT_MAX_WAITING,
      bundleMaxItems: DEFAULT_BUNDLE_MAX_ITEMS,
      ...options,
      prefix: options.prefix,
    };
    const { retentionMs, attempts, backoffMs, prefix, maxWaiting, bundleMaxItems } = this.options;
    if (!Number.isInteger(bundleMaxItems) || bundleMaxItems < 1 || bundleMaxItems > 1000)
      throw new RangeError('bundleMaxItems must be an integer from 1 to 1000');
    if (!Number.isInteger(retentionMs) || retentionMs < 1000) throw new RangeError('retentionMs must be an integer ≥ 1000');
    if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('attempts must be a positive integer');
    if (!Number.isInteger(backoffMs) || backoffMs < 0) throw new RangeError('backoffMs must be a non-negative integer');
    if (prefix !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(prefix))
      throw new RangeError('prefix must be 1-64 characters of [A-Za-z0-9_.-]');
    this.collector = new BundleCollector(this.options.bundleMaxItems, (bundle) => void this.sendBundle(bundle));
    this.bound = new WaitingBound<QueueName>({ maxWaiting, count: (name) => this.untakenCount(name) });
    this.nodeChannel = nodeEventsChannel(prefix, randomUUID());

    const keepFor = { age: Math.ceil(retentionMs / 1000) };
    this.jobOptions = {
      attempts,
      backoff: cappedBackoff(backoffMs),
      removeOnComplete: keepFor,
      removeOnFail: keepFor,
    };
    this.finished.setMaxListeners(0);
    this.redis = createRedis(options.connection, 'producer', { logger: options.logger, connectionName: 'sha224d:producer' });
    this.subscriber = createRedis(options.connection, 'subscriber', { logger: options.logger, connectionName: 'sha224d:job-events' });
    this.subscriber.on('message', (_channel: string, message: string) => this.onMessage(message));
    this.subscribed = this.subscriber.subscribe(jobEventsChannel(prefix), this.nodeChannel);
    this.subscribed.catch((err: unknown) => options.logger.warn({ err }, 'job-events subscribe failed'));
  }

  async run<K extends JobKind>(kind: K, payload: JobPayloads[K], options: RunOptions): Promise<JobResults[K]> {
    const { timeoutMs, signal } = options;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('timeoutMs must be a positive number');
    signal?.throwIfAborted();
    if (isBundleKind(kind) && options.idempotencyKey === undefined && this.options.bundleMaxItems > 1) {
      return this.runBundled(kind, payload as JobPayloads[BundleKind], options) as Promise<JobResults[K]>;
    }
    const deadline = Date.now() + timeoutMs;
    await failFast(this.redis, () => this.subscribed);
    const queueName = QUEUE_OF_KIND[kind];
    const proposedId = randomUUID();
    // Listen before the job exists, so a job that finishes at once is not missed.
    let watch = this.waiters.watch(proposedId);
    try {
      const { id, created } = await this.submitWithId(kind, payload, options, proposedId, this.nodeChannel);
      if (!created) {
        watch.cancel();
        watch = this.waiters.watch(id);
      }
      // Only a job this run created is its to cancel or remove; a replayed one belongs to its key.
      const outcome = await this.awaitOutcome(id, queueName, watch, deadline, created ? signal : undefined, !created);
      if (outcome === undefined) {
        if (created && (await this.cancelUntaken(queueName, id))) throw jobNotStarted(timeoutMs);
        throw jobTimeout(id, timeoutMs);
      }
      if (created && options.idempotencyKey === undefined) await this.forget(queueName, id);
      if (outcome.state === 'failed') throw fromJobError(outcome.error);
      return outcome.result as JobResults[K];
    } finally {
      watch.cancel();
    }
  }

  submit<K extends JobKind>(kind: K, payload: JobPayloads[K], options: SubmitOptions): Promise<{ id: string; created: boolean }> {
    return this.submitWithId(kind, payload, options, randomUUID(), undefined);
  }

  async get(id: string): Promise<JobRecord | undefined> {
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_JOB_ID_LENGTH || id.includes(':')) return undefined;
    const item = parseBundleItemId(id);
    if (item !== undefined) return failFast(this.redis, () => this.bundleItemRecord(item.bundleId, item.index));
    return failFast(this.redis, async () => {
      const found = await this.findJob(id);
      return found === undefined || isBundleData(found.job.data) ? undefined : this.toRecord(found.job as BullJob, found.state);
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
    this.waiters.wakeAll();
    this.finished.removeAllListeners();
  }

  /**
   * A synchronous small job joins this turn's bundle for its queue (and timeout), sent on
   * setImmediate or as soon as it is full: one BullMQ job, one add and one message for every job
   * received in the turn, and no owner key (a bundle is found by its id alone). docs/decisions.md
   * "Jobs and modes".
   */
  private runBundled(kind: BundleKind, payload: JobPayloads[BundleKind], options: RunOptions): Promise<JobResults[BundleKind]> {
    if (this.closing) return Promise.reject(new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is closed' }));
    const item: BundleItem = { kind, accountId: options.accountId, payload };
    const trace = traceFields(currentTrace());
    if (trace.requestId !== undefined || trace.traceparent !== undefined) item.trace = trace;
    return this.collector.add(QUEUE_OF_KIND[kind], options.timeoutMs, item, options.signal);
  }

  /** Sends a bundle and settles each of its runs; never rejects. */
  private async sendBundle(open: OpenBundle): Promise<void> {
    // A caller gone before its bundle leaves takes its job with it: it never runs.
    const runs = open.runs.filter((run) => {
      if (run.signal?.aborted !== true) return true;
      settle(run, { error: run.signal.reason as unknown });
      return false;
    });
    if (runs.length === 0) return;
    const { queueName, timeoutMs } = open;
    const id = randomUUID();
    const watch = this.waiters.watch(id);
    this.sentBundles.set(id, runs);
    const everyCallerGone = allAborted(runs.map((run) => run.signal));
    let added = false;
    let keep = false;
    try {
      await failFast(this.redis, async () => {
        await this.subscribed;
        if (this.closing) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is closed' });
        await this.bound.admit(queueName);
        const queue = await this.queueFor(queueName);
        const data: BullBundleData = { bundle: runs.map((run) => run.item), replyTo: this.nodeChannel };
        await queue.add(BUNDLE_JOB_NAME, data, { ...this.jobOptions, jobId: id });
      });
      added = true;
      const outcome = await this.awaitOutcome(id, queueName, watch, open.deadline, everyCallerGone.signal, false);
      if (outcome === undefined) {
        if (await this.cancelUntaken(queueName, id, false)) {
          added = false;
          for (const run of runs) settle(run, { error: jobNotStarted(timeoutMs) });
        } else {
          // Still running: it goes on and stays for its retention, each item readable by its id.
          keep = true;
          runs.forEach((run, index) => settle(run, { error: jobTimeout(bundleItemId(id, index), timeoutMs) }));
        }
      } else if (outcome.state === 'failed') {
        for (const run of runs) settle(run, { error: fromJobError(outcome.error) });
      } else {
        const outcomes = Array.isArray(outcome.result) ? (outcome.result as unknown[]) : [];
        runs.forEach((run, index) => settleWith(run, bundleOutcomeOf(outcomes[index])));
      }
    } catch (err) {
      // Every caller gone and the bundle removed (each run rejects with its own caller's reason),
      // or Redis failed.
      if (everyCallerGone.signal?.aborted === true) added = false;
      for (const run of runs) settle(run, { error: run.signal?.aborted === true ? (run.signal.reason as unknown) : err });
    } finally {
      watch.cancel();
      everyCallerGone.dispose();
      this.sentBundles.delete(id);
    }
    if (added && !keep) await this.forget(queueName, id, false);
  }

  /** A bundle item's record, from the bundle (GET /v2/jobs/{id} after JOB_TIMEOUT named it). */
  private async bundleItemRecord(bundleId: string, index: number): Promise<JobRecord | undefined> {
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

  /** `replyTo`: the node channel the outcome goes to (`run`); undefined announces it to every node. */
  private async submitWithId<K extends JobKind>(
    kind: K,
    payload: JobPayloads[K],
    options: SubmitOptions,
    id: string,
    replyTo: string | undefined,
  ): Promise<{ id: string; created: boolean }> {
    if (this.closing) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is closed' });
    const queueName = QUEUE_OF_KIND[kind];
    const { retentionMs, prefix } = this.options;
    const ownerKey = this.ownerKey(id);
    return failFast(this.redis, async () => {
      let idemKey: string | undefined;
      if (options.idempotencyKey === undefined) {
        await this.bound.admit(queueName);
        await this.redis.set(ownerKey, queueName, 'PX', retentionMs + OWNER_KEY_SLACK_MS);
      } else {
        idemKey = namespacedRedisKey(prefix, idempotencyRedisKey(options.accountId, options.idempotencyKey));
        const existing = await this.claimIdempotencyKey(idemKey, id, options.fingerprint, ownerKey, queueName);
        if (existing !== undefined) return { id: existing, created: false };
      }
      const data: BullJobData<K> = { kind, accountId: options.accountId, payload };
      const trace = traceFields(currentTrace());
      if (trace.requestId !== undefined || trace.traceparent !== undefined) data.trace = trace;
      if (replyTo !== undefined) data.replyTo = replyTo;
      try {
        // A replay (above) is answered even while the queue is full; a new job is not.
        if (idemKey !== undefined) await this.bound.admit(queueName);
        const queue = await this.queueFor(queueName);
        await queue.add(kind, data, { ...this.jobOptions, jobId: id });
      } catch (err) {
        // A job that was not queued leaves nothing behind.
        await this.redis.del(...(idemKey === undefined ? [ownerKey] : [idemKey, ownerKey])).catch(() => undefined);
        throw err;
      }
      return { id, created: true };
    });
  }

  private ownerKey(id: string): string {
    return namespacedRedisKey(this.options.prefix, jobOwnerRedisKey(id));
  }

  /** Jobs of the queue no worker has taken: waiting, and delayed (a retry's backoff). One count script. */
  private async untakenCount(name: QueueName): Promise<number> {
    const queue = await this.queueFor(name);
    return queue.getJobCountByTypes('wait', 'prioritized', 'delayed');
  }

  /**
   * Removes a job no worker holds (BullMQ refuses to remove a locked, i.e. active, job: a started
   * job finishes). True if it was removed. A job that finished between the caller's last read and
   * this call is removed too; its caller is told to retry, and the work is done twice.
   */
  private async cancelUntaken(queueName: QueueName, id: string, owned = true): Promise<boolean> {
    try {
      return await failFast(this.redis, async () => {
        const queue = await this.queueFor(queueName);
        if ((await queue.remove(id)) !== 1) return false;
        if (owned) await this.redis.del(this.ownerKey(id));
        return true;
      });
    } catch (err) {
      this.options.logger.warn({ err, jobId: id }, 'cancelling a job nobody waits for failed');
      return false;
    }
  }

  /** A synchronous job has been answered: nothing of it stays in Redis (else its retention removes it). */
  private async forget(queueName: QueueName, id: string, owned = true): Promise<void> {
    try {
      await failFast(this.redis, async () => {
        const queue = await this.queueFor(queueName);
        await Promise.all([queue.remove(id), owned ? this.redis.del(this.ownerKey(id)) : undefined]);
      });
    } catch (err) {
      this.options.logger.warn({ err, jobId: id }, 'removing an answered synchronous job failed; its retention will');
    }
  }

  /**
   * SET NX the key to `id` and the request's fingerprint; if another job holds it, that job's id
   * (or IDEMPOTENCY_KEY_REUSED if it was claimed by a different request). One round trip in the
   * common case.
   */
  private async claimIdempotencyKey(
    idemKey: string,
    id: string,
    fingerprint: string | undefined,
    ownerKey: string,
    queueName: QueueName,
  ): Promise<string | undefined> {
    const { retentionMs } = this.options;
    for (let attempt = 0; attempt < 3; attempt++) {
      const replies = await this.redis
        .multi()
        .set(idemKey, encodeIdempotencyRecord(id, fingerprint), 'PX', retentionMs, 'NX')
        .set(ownerKey, queueName, 'PX', retentionMs + OWNER_KEY_SLACK_MS)
        .exec();
      const claimed = replies?.[0]?.[1] === 'OK';
      if (claimed) return undefined;
      const value = await this.redis.get(idemKey);
      if (value !== null) {
        const existing = decodeIdempotencyRecord(value);
        if ((await this.findJob(existing.jobId)) !== undefined) {
          assertSameRequest(existing.fingerprint, fingerprint);
          return existing.jobId;
        }
        // The job it named is gone (removed or never added): the key is free again, as in InProcessQueue.
        await this.redis.del(idemKey);
      }
      // The holder expired or was released between SET and GET: claim again.
    }
    throw new ServiceError('CONFLICT', { details: 'idempotency key is being reused concurrently; retry' });
  }

  private queueFor(name: QueueName): Promise<Queue<BullData, unknown, string>> {
    let pending = this.queues.get(name);
    if (pending === undefined) {
      const queue = new Queue<BullData, unknown, string>(bullQueueName(name), {
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
  private async findJob(id: string, queueHint?: QueueName): Promise<{ job: AnyBullJob; state: JobState } | undefined> {
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

  private toRecord(job: BullJob, state: JobState): JobRecord {
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

  /** The job's outcome if it has finished; undefined while queued or active. */
  private async readOutcome(id: string, queueHint: QueueName): Promise<JobOutcome | undefined> {
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
  private async awaitOutcome(
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
      const outcome = await this.readOutcome(id, queueName);
      if (outcome) return outcome;
      if (event.kind === 'message') {
        // A message without an outcome or a finished state (a stale duplicate); listen again.
        watch.rearm();
      } else if (event.kind === 'slept') {
        pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
      }
    }
  }

  private onMessage(text: string): void {
    const bundle = parseBundleMessage(text);
    if (bundle !== undefined) {
      if (bundle.state === 'completed') {
        this.waiters.wake(bundle.id, { state: 'completed', result: bundle.outcomes as unknown as JobResults[JobKind] });
      } else {
        // Final items of an attempt retried for its other items: answered now.
        this.sentBundles.get(bundle.id)?.forEach((run, index) => {
          const outcome = bundle.outcomes[index];
          if (outcome !== null && outcome !== undefined) settleWith(run, outcome);
        });
      }
      return;
    }
    const message = parseJobFinishedMessage(text);
    if (message === undefined) return;
    this.waiters.wake(message.id, outcomeOf(message));
    this.finished.emit('finished', message.id);
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
