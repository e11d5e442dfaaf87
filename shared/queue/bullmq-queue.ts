/**
 * Distributed mode's producer: one BullMQ queue per QueueName (bullmq-jobs.ts), jobs run by
 * `startBullMqWorkers` in worker processes (workers/bullmq/). Semantics match InProcessQueue; the contract suite in
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
import type { JobsOptions } from 'bullmq';
import type { RedisClient } from '../redis/client-factory.js';
import { ServiceError } from '../errors.js';
import { QUEUE_OF_KIND, type JobKind, type JobPayloads, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import {
  BUNDLE_JOB_NAME,
  bundleItemId,
  bundleOutcomeOf,
  isBundleKind,
  jobEventsChannel,
  nodeEventsChannel,
  parseBundleItemId,
  parseBundleMessage,
  parseJobFinishedMessage,
  type BullBundleData,
  type BundleItem,
  type BundleKind,
} from './bullmq-wire.js';
import { BullMqJobs } from './bullmq-jobs.js';
import { currentTrace, traceFields } from '../trace.js';
import { fromJobError, jobNotStarted, jobTimeout } from './execute.js';
import {
  allAborted,
  BundleCollector,
  DEFAULT_BUNDLE_MAX_ITEMS,
  settle,
  settleWith,
  type BundledRun,
  type OpenBundle,
} from './bundle-collector.js';
import { JobWaiters, outcomeOf } from './job-waiters.js';
import { subscribeChannels } from '../redis/pubsub.js';
import { QUEUE_PREFIX_PATTERN } from '../redis/topology.js';
import { closeRedis, createRedis, failFast, type RedisTarget } from './redis-connection.js';
import { BullMqAdder } from './bullmq-add.js';
import { cappedBackoff, DEFAULT_RETRY_POLICY } from './retry-policy.js';
import type { JobQueue, JobRecord, RunOptions, SubmitOptions } from './types.js';
import { DEFAULT_MAX_WAITING, WaitingBound } from './waiting-bound.js';

export interface BullMqJobQueueOptions {
  /** The configured Redis (Config.redis), or a redis:// URL. */
  connection: RedisTarget;
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
  /** How long an add that met a Redis failover is retried with the same id (REDIS_FAILOVER_RETRY_MS; default 0: not retried). */
  failoverRetryMs?: number;
  /** WAIT this long for one replica after each add (REDIS_REPLICA_WAIT_MS, Sentinel and Cluster; default 0: no WAIT). */
  replicaWaitMs?: number;
}

const MAX_JOB_ID_LENGTH = 100;

export class BullMqJobQueue implements JobQueue {
  private readonly options: Required<Omit<BullMqJobQueueOptions, 'prefix'>> & { prefix: string | undefined };
  private readonly redis: RedisClient;
  private readonly subscriber: RedisClient;
  private readonly subscribed: Promise<unknown>;
  private readonly jobs: BullMqJobs;
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
  /** Adds jobs through a failover, replicated before they are answered (bullmq-add.ts). */
  private readonly adder: BullMqAdder;

  constructor(options: BullMqJobQueueOptions) {
    this.options = {
      attempts: DEFAULT_RETRY_POLICY.attempts,
      backoffMs: DEFAULT_RETRY_POLICY.backoffMs,
      maxWaiting: DEFAULT_MAX_WAITING,
      bundleMaxItems: DEFAULT_BUNDLE_MAX_ITEMS,
      failoverRetryMs: 0,
      replicaWaitMs: 0,
      ...options,
      prefix: options.prefix,
    };
    const { retentionMs, attempts, backoffMs, prefix, maxWaiting, bundleMaxItems } = this.options;
    if (!Number.isInteger(bundleMaxItems) || bundleMaxItems < 1 || bundleMaxItems > 1000)
      throw new RangeError('bundleMaxItems must be an integer from 1 to 1000');
    if (!Number.isInteger(retentionMs) || retentionMs < 1000) throw new RangeError('retentionMs must be an integer ≥ 1000');
    if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('attempts must be a positive integer');
    if (!Number.isInteger(backoffMs) || backoffMs < 0) throw new RangeError('backoffMs must be a non-negative integer');
    if (prefix !== undefined && !QUEUE_PREFIX_PATTERN.test(prefix))
      throw new RangeError('prefix must be 1-64 characters of [A-Za-z0-9_.-] with at most one hash tag {…}');
    this.collector = new BundleCollector(this.options.bundleMaxItems, (bundle) => void this.sendBundle(bundle));
    this.bound = new WaitingBound<QueueName>({ maxWaiting, count: (name) => this.jobs.untakenCount(name) });
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
    this.jobs = new BullMqJobs(this.redis, prefix, options.logger, this.options.failoverRetryMs);
    this.adder = new BullMqAdder({
      redis: this.redis,
      jobs: this.jobs,
      bound: this.bound,
      logger: options.logger,
      prefix,
      retentionMs,
      jobOptions: this.jobOptions,
      failoverRetryMs: this.options.failoverRetryMs,
      replicaWaitMs: this.options.replicaWaitMs,
    });
    this.subscriber = createRedis(options.connection, 'subscriber', { logger: options.logger, connectionName: 'sha224d:job-events' });
    this.subscribed = subscribeChannels(this.subscriber, [jobEventsChannel(prefix), this.nodeChannel], (_channel, message) =>
      this.onMessage(message),
    );
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
      const outcome = await this.jobs.awaitOutcome(id, queueName, watch, deadline, created ? signal : undefined, !created);
      if (outcome === undefined) {
        if (created && (await this.jobs.cancelUntaken(queueName, id))) throw jobNotStarted(timeoutMs);
        throw jobTimeout(id, timeoutMs);
      }
      if (created && options.idempotencyKey === undefined) await this.jobs.forget(queueName, id);
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
    if (item !== undefined) return failFast(this.redis, () => this.jobs.bundleItemRecord(item.bundleId, item.index));
    return failFast(this.redis, () => this.jobs.record(id));
  }

  onFinished(listener: (jobId: string) => void): () => void {
    this.finished.on('finished', listener);
    return () => this.finished.off('finished', listener);
  }

  prepare(kind: JobKind): void {
    // A failure here is the first job's to report: that job builds the queue again (bullmq-jobs.ts).
    this.jobs.queueFor(QUEUE_OF_KIND[kind]).catch(() => undefined);
  }

  async ping(): Promise<void> {
    await failFast(this.redis, () => this.redis.ping());
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const [closedQueues, closedSubscriber] = await Promise.all([this.jobs.close(), Promise.allSettled([closeRedis(this.subscriber)])]);
    const results = [...closedQueues, ...closedSubscriber];
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
      await this.adder.throughFailover(async () => {
        await failFast(this.redis, async () => {
          await this.subscribed;
          if (this.closing) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is closed' });
          await this.bound.admit(queueName);
          const queue = await this.jobs.queueFor(queueName);
          const data: BullBundleData = { bundle: runs.map((run) => run.item), replyTo: this.nodeChannel };
          await queue.add(BUNDLE_JOB_NAME, data, { ...this.jobOptions, jobId: id });
        });
        await this.adder.awaitReplica();
      });
      added = true;
      const outcome = await this.jobs.awaitOutcome(id, queueName, watch, open.deadline, everyCallerGone.signal, false);
      if (outcome === undefined) {
        if (await this.jobs.cancelUntaken(queueName, id, false)) {
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
    if (added && !keep) await this.jobs.forget(queueName, id, false);
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
    return this.adder.add(kind, payload, options, id, replyTo);
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
