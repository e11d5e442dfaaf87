import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { BlobStore } from '../blob/types.js';
import { blobOf, QUEUE_NAMES, QUEUE_OF_KIND, type JobKind, type JobPayloads, type JobResults, type QueueName } from '../jobs/contracts.js';
import { processMetrics, type Metrics } from '../metrics/catalogue.js';
import { jobRecorder, type JobRecorder, type QueueFigures } from '../metrics/record.js';
import { currentTrace, traceFields } from '../trace.js';
import type { Logger } from '../log.js';
import { fromJobError, jobNotStarted, jobTimeout, queueFull, toJobError } from './execute.js';
import { assertSameRequest } from './idempotency.js';
import type { JobHandlers, JobQueue, JobRecord, JobRecordOf, RunOptions, SubmitOptions, WorkerPool } from './types.js';
import { DEFAULT_MAX_WAITING } from './waiting-bound.js';

export interface InProcessQueueOptions {
  handlers: JobHandlers;
  blobs: BlobStore;
  logger: Logger;
  concurrency: number;
  retentionMs: number;
  blobRetentionMs: number;
  /** Jobs of a queue waiting for a slot (QUEUE_MAX_WAITING, default 10,000); past it submits are refused (503). 0: unbounded. */
  maxWaiting?: number;
  /** Default: this process's registry. */
  metrics?: Metrics;
}

/**
 * Embedded mode's queue: jobs run in this process, at most `concurrency` at a time, through the
 * same handlers the BullMQ workers run. Finished async jobs are kept `retentionMs` for
 * GET /v2/jobs; as in distributed mode, a synchronous job is forgotten once answered (unless it
 * has an idempotency key), one still waiting for a slot at its deadline or when its caller is
 * gone is cancelled, and each queue holds at most `maxWaiting` waiting jobs.
 */
export class InProcessQueue implements JobQueue, WorkerPool {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly idempotency = new Map<string, { jobId: string; fingerprint: string | undefined }>();
  private readonly finished = new EventEmitter();
  private readonly waitingForSlot: Array<() => void> = [];
  private running = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;
  private readonly jobMetrics: JobRecorder;
  /** Per queue: jobs waiting for a slot, oldest first (a Set keeps insertion order); running; retained failed. */
  private readonly waiting = new Map<QueueName, Set<JobRecordOf<JobKind>>>(QUEUE_NAMES.map((q) => [q, new Set()]));
  private readonly active = new Map<QueueName, number>(QUEUE_NAMES.map((q) => [q, 0]));
  private readonly failedKept = new Map<QueueName, number>(QUEUE_NAMES.map((q) => [q, 0]));
  private readonly maxWaiting: number;

  constructor(private readonly options: InProcessQueueOptions) {
    this.maxWaiting = options.maxWaiting ?? DEFAULT_MAX_WAITING;
    if (!Number.isInteger(this.maxWaiting) || this.maxWaiting < 0) throw new RangeError('maxWaiting must be a non-negative integer');
    this.jobMetrics = jobRecorder(options.metrics ?? processMetrics());
    this.finished.setMaxListeners(0);
    this.sweeper = setInterval(() => this.sweep(), Math.min(options.retentionMs, 60_000));
    this.sweeper.unref();
  }

  async submit<K extends JobKind>(kind: K, payload: JobPayloads[K], options: SubmitOptions): Promise<{ id: string; created: boolean }> {
    const idemKey = options.idempotencyKey === undefined ? undefined : `${options.accountId}\u0000${options.idempotencyKey}`;
    if (idemKey !== undefined) {
      const existing = this.idempotency.get(idemKey);
      if (existing !== undefined && this.jobs.has(existing.jobId)) {
        assertSameRequest(existing.fingerprint, options.fingerprint);
        return { id: existing.jobId, created: false };
      }
    }
    const queue = QUEUE_OF_KIND[kind];
    if (this.maxWaiting > 0 && this.waiting.get(queue)!.size >= this.maxWaiting) throw queueFull(queue);
    const record: JobRecordOf<K> = {
      id: randomUUID(),
      kind,
      accountId: options.accountId,
      state: 'queued',
      payload,
      createdAt: Date.now(),
      ...(options.webhook === undefined ? {} : { webhook: options.webhook }),
    };
    const trace = currentTrace();
    if (trace !== undefined) record.trace = traceFields(trace);
    // The one widening of a record of kind K to the union the map holds.
    this.jobs.set(record.id, record as JobRecord);
    if (idemKey !== undefined) this.idempotency.set(idemKey, { jobId: record.id, fingerprint: options.fingerprint });
    void this.execute(record);
    return Promise.resolve({ id: record.id, created: true });
  }

  async run<K extends JobKind>(kind: K, payload: JobPayloads[K], options: RunOptions): Promise<JobResults[K]> {
    const { timeoutMs, signal } = options;
    signal?.throwIfAborted();
    const { id, created } = await this.submit(kind, payload, options);
    // Only a job this run created is its to cancel or forget; a replayed one belongs to its key.
    const record = await this.waitFor(id, timeoutMs, created ? signal : undefined);
    // Cancelled because the caller is gone: the rejection goes nowhere but to the caller's own cleanup.
    if (record === 'cancelled') throw signal?.reason as unknown;
    if (record === undefined) {
      if (created && this.cancelWaiting(id)) throw jobNotStarted(timeoutMs);
      throw jobTimeout(id, timeoutMs);
    }
    if (created && options.idempotencyKey === undefined) this.forget(record);
    if (record.state === 'failed') throw fromJobError(record.error ?? { code: 'INTERNAL_ERROR', message: 'Internal error' });
    return record.result as JobResults[K];
  }

  get(id: string): Promise<JobRecord | undefined> {
    return Promise.resolve(this.jobs.get(id));
  }

  /** Called with each job id as it completes or fails (WebSocket and socket.io pushes). */
  onFinished(listener: (jobId: string) => void): () => void {
    this.finished.on('finished', listener);
    return () => this.finished.off('finished', listener);
  }

  ping(): Promise<void> {
    return this.closed ? Promise.reject(new Error('queue closed')) : Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    return Promise.resolve();
  }

  /**
   * The finished record, or undefined at the deadline. `callerGone` cancels a job still waiting for
   * a slot ('cancelled'); a running one is still waited for.
   */
  private waitFor(id: string, timeoutMs: number, callerGone: AbortSignal | undefined): Promise<JobRecord | 'cancelled' | undefined> {
    return new Promise((resolve, reject) => {
      const current = this.jobs.get(id);
      if (current && (current.state === 'completed' || current.state === 'failed')) return resolve(current);
      const onFinished = (finishedId: string): void => {
        if (finishedId !== id) return;
        cleanup();
        const record = this.jobs.get(id);
        if (record) resolve(record);
        else reject(jobTimeout(id, timeoutMs));
      };
      const onAbort = (): void => {
        if (!this.cancelWaiting(id)) return;
        cleanup();
        resolve('cancelled');
      };
      const timer = setTimeout(() => {
        cleanup();
        resolve(undefined);
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.finished.off('finished', onFinished);
        callerGone?.removeEventListener('abort', onAbort);
      };
      this.finished.on('finished', onFinished);
      callerGone?.addEventListener('abort', onAbort, { once: true });
      // Gone already (while the job was being submitted): 'abort' will not fire again.
      if (callerGone?.aborted) onAbort();
    });
  }

  /** Cancels a job still waiting for a slot: it never runs and is forgotten. True if it was waiting. */
  private cancelWaiting(id: string): boolean {
    const record = this.jobs.get(id);
    if (record === undefined || record.state !== 'queued') return false;
    if (!this.waiting.get(QUEUE_OF_KIND[record.kind])!.delete(record)) return false;
    this.forget(record);
    return true;
  }

  /** Drops a job's record now instead of at the end of its retention (an idempotency key naming it is then free, as in submit). */
  private forget<K extends JobKind>(record: JobRecordOf<K>): void {
    if (!this.jobs.delete(record.id)) return;
    if (record.state === 'failed') this.failedKept.set(QUEUE_OF_KIND[record.kind], this.failedKept.get(QUEUE_OF_KIND[record.kind])! - 1);
  }

  /**
   * The queue gauges' figures in embedded mode: the same states as BullMQ's, from counters kept
   * as jobs move (a scrape never walks the retained jobs). One in-process pool serves every queue.
   */
  figures(now = Date.now()): Map<QueueName, QueueFigures> {
    return new Map(
      QUEUE_NAMES.map((queue) => {
        const waiting = this.waiting.get(queue)!;
        const oldest = waiting.values().next();
        const counts = {
          waiting: waiting.size,
          active: this.active.get(queue)!,
          delayed: 0,
          failed: this.failedKept.get(queue)!,
          paused: 0,
        };
        const age = oldest.done === true ? 0 : Math.max(0, (now - oldest.value.createdAt) / 1000);
        return [queue, { counts, oldestWaitingAgeSeconds: age, workers: this.closed ? 0 : 1 }] as const;
      }),
    );
  }

  private async execute<K extends JobKind>(record: JobRecordOf<K>): Promise<void> {
    const queue = QUEUE_OF_KIND[record.kind];
    const waiting = this.waiting.get(queue)!;
    if (this.running < this.options.concurrency) {
      // A free slot is taken now, so only jobs that really wait count against maxWaiting; the
      // handler still starts after submit has returned.
      this.running++;
      await Promise.resolve();
    } else {
      waiting.add(record);
      await new Promise<void>((resolve) => this.waitingForSlot.push(resolve));
      if (!waiting.delete(record)) {
        // Cancelled while it waited (cancelWaiting): it never runs.
        this.releaseSlot();
        return;
      }
    }
    this.active.set(queue, this.active.get(queue)! + 1);
    record.state = 'active';
    const started = Date.now();
    this.jobMetrics.waited(record.kind, (started - record.createdAt) / 1000);
    const log = this.options.logger.child({ ...traceFields(record.trace), jobId: record.id, kind: record.kind });
    try {
      const handler = this.options.handlers[record.kind];
      record.result = await handler(record.payload, { jobId: record.id, blobs: this.options.blobs });
      record.state = 'completed';
      this.jobMetrics.completed(record.kind, 'queue');
      log.info({ durationMs: Date.now() - started }, 'job completed');
    } catch (err) {
      record.error = toJobError(err);
      record.state = 'failed';
      this.failedKept.set(queue, this.failedKept.get(queue)! + 1);
      this.jobMetrics.failed(record.kind, record.error.code);
      if (record.error.code === 'INTERNAL_ERROR') log.error({ err }, 'job failed');
      else log.info({ code: record.error.code, durationMs: Date.now() - started }, 'job failed');
    } finally {
      this.active.set(queue, this.active.get(queue)! - 1);
      this.jobMetrics.ran(record.kind, (Date.now() - started) / 1000);
      record.finishedAt = Date.now();
      this.releaseSlot();
      this.finished.emit('finished', record.id);
      this.dropBlob(record);
    }
  }

  private dropBlob<K extends JobKind>(record: JobRecordOf<K>): void {
    const blob = blobOf(record.kind, record.payload);
    if (!blob) return;
    const remove = (): void => {
      this.options.blobs.delete(blob.key).catch((err: unknown) => this.options.logger.warn({ err, key: blob.key }, 'blob delete failed'));
    };
    if (this.options.blobRetentionMs === 0) remove();
    else setTimeout(remove, this.options.blobRetentionMs).unref();
  }

  private releaseSlot(): void {
    const next = this.waitingForSlot.shift();
    if (next) next();
    else this.running--;
  }

  private sweep(): void {
    const cutoff = Date.now() - this.options.retentionMs;
    for (const [id, record] of this.jobs) {
      if (record.finishedAt !== undefined && record.finishedAt < cutoff) {
        this.jobs.delete(id);
        if (record.state === 'failed')
          this.failedKept.set(QUEUE_OF_KIND[record.kind], this.failedKept.get(QUEUE_OF_KIND[record.kind])! - 1);
      }
    }
    for (const [key, { jobId }] of this.idempotency) if (!this.jobs.has(jobId)) this.idempotency.delete(key);
  }

  /** Keys of the blobs its queued and running jobs reference: what the blob sweep keeps (shared/blob/sweep.ts). */
  liveBlobKeys(): Set<string> {
    const keys = new Set<string>();
    for (const record of this.jobs.values()) {
      const blob = record.state === 'queued' || record.state === 'active' ? blobOf(record.kind, record.payload) : undefined;
      if (blob !== undefined) keys.add(blob.key);
    }
    return keys;
  }
}
