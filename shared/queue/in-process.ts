import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { BlobStore } from '../blob/types.js';
import { blobOf, type JobKind, type JobPayloads, type JobResults } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { fromJobError, jobTimeout, toJobError } from './execute.js';
import type { JobHandlers, JobQueue, JobRecord, RunOptions, SubmitOptions, WorkerPool } from './types.js';

export interface InProcessQueueOptions {
  handlers: JobHandlers;
  blobs: BlobStore;
  logger: Logger;
  concurrency: number;
  retentionMs: number;
  blobRetentionMs: number;
}

/**
 * Embedded mode's queue: jobs run in this process, at most `concurrency` at a time, through the
 * same handlers the BullMQ workers run. Finished jobs are kept `retentionMs` for GET /v2/jobs.
 */
export class InProcessQueue implements JobQueue, WorkerPool {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly idempotency = new Map<string, string>();
  private readonly finished = new EventEmitter();
  private readonly waitingForSlot: Array<() => void> = [];
  private running = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: InProcessQueueOptions) {
    this.finished.setMaxListeners(0);
    this.sweeper = setInterval(() => this.sweep(), Math.min(options.retentionMs, 60_000));
    this.sweeper.unref();
  }

  async submit<K extends JobKind>(kind: K, payload: JobPayloads[K], options: SubmitOptions): Promise<{ id: string; created: boolean }> {
    const idemKey = options.idempotencyKey === undefined ? undefined : `${options.accountId}\u0000${options.idempotencyKey}`;
    if (idemKey !== undefined) {
      const existing = this.idempotency.get(idemKey);
      if (existing !== undefined && this.jobs.has(existing)) return { id: existing, created: false };
    }
    const record: JobRecord<K> = { id: randomUUID(), kind, accountId: options.accountId, state: 'queued', payload, createdAt: Date.now() };
    this.jobs.set(record.id, record);
    if (idemKey !== undefined) this.idempotency.set(idemKey, record.id);
    void this.execute(record);
    return Promise.resolve({ id: record.id, created: true });
  }

  async run<K extends JobKind>(kind: K, payload: JobPayloads[K], options: RunOptions): Promise<JobResults[K]> {
    const { id } = await this.submit(kind, payload, options);
    const record = await this.waitFor(id, options.timeoutMs);
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

  private waitFor(id: string, timeoutMs: number): Promise<JobRecord> {
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
      const timer = setTimeout(() => {
        cleanup();
        reject(jobTimeout(id, timeoutMs));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.finished.off('finished', onFinished);
      };
      this.finished.on('finished', onFinished);
    });
  }

  private async execute<K extends JobKind>(record: JobRecord<K>): Promise<void> {
    await this.acquireSlot();
    record.state = 'active';
    try {
      const handler = this.options.handlers[record.kind];
      record.result = await handler(record.payload, { jobId: record.id, blobs: this.options.blobs });
      record.state = 'completed';
    } catch (err) {
      record.error = toJobError(err);
      record.state = 'failed';
      if (record.error.code === 'INTERNAL_ERROR') this.options.logger.error({ err, jobId: record.id, kind: record.kind }, 'job failed');
    } finally {
      record.finishedAt = Date.now();
      this.releaseSlot();
      this.finished.emit('finished', record.id);
      this.dropBlob(record);
    }
  }

  private dropBlob(record: JobRecord): void {
    const blob = blobOf(record.kind, record.payload);
    if (!blob) return;
    const remove = (): void => {
      this.options.blobs.delete(blob.key).catch((err: unknown) => this.options.logger.warn({ err, key: blob.key }, 'blob delete failed'));
    };
    if (this.options.blobRetentionMs === 0) remove();
    else setTimeout(remove, this.options.blobRetentionMs).unref();
  }

  private acquireSlot(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waitingForSlot.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.waitingForSlot.shift();
    if (next) next();
    else this.running--;
  }

  private sweep(): void {
    const cutoff = Date.now() - this.options.retentionMs;
    for (const [id, record] of this.jobs) {
      if (record.finishedAt !== undefined && record.finishedAt < cutoff) this.jobs.delete(id);
    }
    for (const [key, id] of this.idempotency) if (!this.jobs.has(id)) this.idempotency.delete(key);
  }
}
