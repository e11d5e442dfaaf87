/**
 * Where bulk jobs' records and progress live: memory in embedded mode, a Redis hash in
 * distributed mode (redis-store.ts), so every API node and worker sees the same counts. Workers
 * write only through `chunkFinished`; they have no database access.
 */
import type { BulkRecord, BulkSource, ChunkSummary } from './model.js';

export interface BulkStore {
  /**
   * A new record in state `receiving`, or undefined when the account already has `maxActive`
   * jobs not yet finished (receiving or running): the check and the insert are one step.
   */
  open(
    record: { id: string; accountId: string; source: BulkSource; createdAt: number },
    maxActive: number,
  ): Promise<BulkRecord | undefined>;
  /** Received in full: `total` items in `chunks` chunks, about to be queued. */
  start(id: string, total: number, chunks: number, now: number): Promise<void>;
  /** A job whose intake failed: forgotten, its slot freed. */
  discard(id: string): Promise<void>;
  get(id: string): Promise<BulkRecord | undefined>;
  /**
   * Counts a finished chunk once (a retried chunk that finishes again adds nothing). The job
   * completes with its last chunk; a finished job is kept `retentionMs`.
   */
  chunkFinished(id: string, index: number, summary: ChunkSummary, now: number): Promise<BulkRecord | undefined>;
  /**
   * The result part's size of each of the job's `chunks` chunks, as counted by `chunkFinished`;
   * undefined for a chunk not counted (a cancelled job's), or counted before sizes were recorded.
   */
  partSizes(id: string, chunks: number): Promise<Array<number | undefined>>;
  /** Stops a running job: its chunks not yet run are skipped. The record as it is afterwards. */
  cancel(id: string, now: number): Promise<BulkRecord | undefined>;
  close(): Promise<void>;
}

/** How long a record is kept: finished, for the job retention; unfinished, long enough for any job to end. */
export const UNFINISHED_TTL_MS = 7 * 24 * 3600 * 1000;

export function isFinished(record: Pick<BulkRecord, 'state'>): boolean {
  return record.state === 'completed' || record.state === 'cancelled';
}

/** Embedded mode's store: one process, so plain objects; finished records expire after `retentionMs`. */
export class MemoryBulkStore implements BulkStore {
  private readonly records = new Map<string, { record: BulkRecord; expiresAt: number; chunks: Map<number, number> }>();

  constructor(private readonly retentionMs: number) {}

  open(
    input: { id: string; accountId: string; source: BulkSource; createdAt: number },
    maxActive: number,
  ): Promise<BulkRecord | undefined> {
    this.sweep(input.createdAt);
    let active = 0;
    for (const { record } of this.records.values()) if (record.accountId === input.accountId && !isFinished(record)) active++;
    if (active >= maxActive) return Promise.resolve(undefined);
    const record: BulkRecord = { ...input, state: 'receiving', total: 0, chunks: 0, chunksDone: 0, done: 0, failed: 0, bytes: 0 };
    this.records.set(input.id, { record, expiresAt: input.createdAt + UNFINISHED_TTL_MS, chunks: new Map() });
    return Promise.resolve({ ...record });
  }

  start(id: string, total: number, chunks: number, now: number): Promise<void> {
    const entry = this.records.get(id);
    if (entry !== undefined && entry.record.state === 'receiving')
      Object.assign(entry.record, { state: 'running', total, chunks, startedAt: now });
    return Promise.resolve();
  }

  discard(id: string): Promise<void> {
    this.records.delete(id);
    return Promise.resolve();
  }

  get(id: string): Promise<BulkRecord | undefined> {
    const entry = this.records.get(id);
    if (entry === undefined || entry.expiresAt <= Date.now()) return Promise.resolve(undefined);
    return Promise.resolve({ ...entry.record });
  }

  chunkFinished(id: string, index: number, summary: ChunkSummary, now: number): Promise<BulkRecord | undefined> {
    const entry = this.records.get(id);
    if (entry === undefined) return Promise.resolve(undefined);
    const { record } = entry;
    if (!entry.chunks.has(index)) {
      entry.chunks.set(index, summary.partBytes);
      record.chunksDone++;
      record.done += summary.done;
      record.failed += summary.failed;
      record.bytes += summary.bytes;
      if (record.state === 'running' && record.chunksDone >= record.chunks) this.finish(entry, 'completed', now);
    }
    return Promise.resolve({ ...record });
  }

  partSizes(id: string, chunks: number): Promise<Array<number | undefined>> {
    const counted = this.records.get(id)?.chunks;
    return Promise.resolve(Array.from({ length: chunks }, (_, index) => counted?.get(index)));
  }

  cancel(id: string, now: number): Promise<BulkRecord | undefined> {
    const entry = this.records.get(id);
    if (entry === undefined) return Promise.resolve(undefined);
    if (!isFinished(entry.record)) this.finish(entry, 'cancelled', now);
    return Promise.resolve({ ...entry.record });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private finish(entry: { record: BulkRecord; expiresAt: number }, state: 'completed' | 'cancelled', now: number): void {
    entry.record.state = state;
    entry.record.finishedAt = now;
    entry.expiresAt = now + this.retentionMs;
  }

  private sweep(now: number): void {
    for (const [id, entry] of this.records) if (entry.expiresAt <= now) this.records.delete(id);
  }
}
