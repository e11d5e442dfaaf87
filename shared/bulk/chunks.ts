/**
 * Chunks of bulk jobs as tasks: what queues them (the API node), what runs one (a worker, or this
 * process in embedded mode). Running a chunk is the same in both modes (`runChunk`): skip it if
 * its job is no longer running, process it, count it once.
 */
import type { BlobStore } from '../blob/types.js';
import type { Logger } from '../log.js';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { toJobError } from '../queue/execute.js';
import type { JobErrorInfo } from '../queue/types.js';
import { chunkInputKey, chunkOutputKey, type ChunkSummary, type ChunkTask } from './model.js';
import type { BulkStore } from './store.js';

/** The producer side: API nodes queue a job's chunks, all at once, once its input is stored. */
export interface ChunkQueue {
  enqueue(tasks: readonly ChunkTask[]): Promise<void>;
  close(): Promise<void>;
}

/** Thrown by a processor that saw its job cancelled: the chunk ends uncounted, and is not retried. */
export class ChunkCancelled extends Error {
  constructor() {
    super('bulk job cancelled');
  }
}

export interface ChunkContext {
  blobs: BlobStore;
  /** False once the job is cancelled (or gone): a processor asks between items and stops early. */
  stillRunning: () => Promise<boolean>;
}

/** Hashes one chunk's items and writes its result part; per-item failures are lines of the part, not a failure. */
export type ChunkProcessor = (task: ChunkTask, ctx: ChunkContext) => Promise<ChunkSummary>;

export interface ChunkRunDeps {
  store: BulkStore;
  blobs: BlobStore;
  process: ChunkProcessor;
  logger: Logger;
}

/** Runs one chunk; a failure other than a cancel is thrown, so the queue retries this chunk alone. */
export async function runChunk(task: ChunkTask, deps: ChunkRunDeps): Promise<'done' | 'skipped'> {
  const running = async (): Promise<boolean> => (await deps.store.get(task.bulkId))?.state === 'running';
  if (!(await running())) return 'skipped';
  let summary: ChunkSummary;
  try {
    summary = await deps.process(task, { blobs: deps.blobs, stillRunning: running });
  } catch (err) {
    if (err instanceof ChunkCancelled) return 'skipped';
    throw err;
  }
  const record = await deps.store.chunkFinished(task.bulkId, task.index, summary, Date.now());
  deps.logger.info({ bulkId: task.bulkId, chunk: task.index, ...summary }, 'bulk chunk done');
  // The last chunk's runner deletes the inputs: only the result parts are read from now on.
  if (record?.state === 'completed') {
    for (let index = 0; index < record.chunks; index++) {
      await deps.blobs.delete(chunkInputKey(task.bulkId, index)).catch((err: unknown) => {
        deps.logger.warn({ err, bulkId: task.bulkId }, 'bulk input delete failed');
      });
    }
  }
  return 'done';
}

/**
 * A chunk out of attempts (the blob store or Redis away longer than the retries): its items become
 * error lines carrying the failure, when its input can still be read, and it counts as finished,
 * so its job still completes rather than wait forever.
 */
export async function failChunk(task: ChunkTask, error: JobErrorInfo, deps: Omit<ChunkRunDeps, 'process'>): Promise<void> {
  let text = '';
  let failed = task.items ?? 0;
  let partBytes = 0;
  try {
    const input = await deps.blobs.get(chunkInputKey(task.bulkId, task.index));
    let count = 0;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      if (line === '') continue;
      text += `${JSON.stringify({ id: (JSON.parse(line) as { id: string }).id, error })}\n`;
      count++;
    }
    failed = count;
    const part = Buffer.from(text, 'utf8');
    await deps.blobs.put(chunkOutputKey(task.bulkId, task.index), Readable.from([part]), { maxBytes: Number.MAX_SAFE_INTEGER });
    partBytes = part.length;
  } catch (err) {
    deps.logger.warn({ err, bulkId: task.bulkId, chunk: task.index }, 'bulk chunk failed for good; its items have no result lines');
  }
  await deps.store.chunkFinished(task.bulkId, task.index, { done: 0, failed, bytes: 0, partBytes }, Date.now());
  deps.logger.warn({ bulkId: task.bulkId, chunk: task.index, code: error.code }, 'bulk chunk failed for good');
}

/**
 * Embedded mode's chunk queue: chunks run in this process, `concurrency` at a time (BULK_CONCURRENCY,
 * default 1), apart from the job queue's slots, so a bulk job never holds up interactive requests'
 * jobs. A failed chunk is retried on its own, up to `attempts` times.
 */
export class InProcessChunkQueue implements ChunkQueue {
  private readonly waiting: Array<{ task: ChunkTask; attempt: number }> = [];
  private running = 0;
  private closed = false;

  constructor(private readonly deps: ChunkRunDeps & { concurrency: number; attempts: number; retryDelayMs?: number }) {}

  enqueue(tasks: readonly ChunkTask[]): Promise<void> {
    for (const task of tasks) this.waiting.push({ task, attempt: 1 });
    this.pump();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    return Promise.resolve();
  }

  private pump(): void {
    while (!this.closed && this.running < this.deps.concurrency && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running++;
      void this.run(next.task, next.attempt).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(task: ChunkTask, attempt: number): Promise<void> {
    try {
      await runChunk(task, this.deps);
    } catch (err) {
      this.deps.logger.warn({ err, bulkId: task.bulkId, chunk: task.index, attempt }, 'bulk chunk failed');
      if (this.closed) return;
      if (attempt >= this.deps.attempts) return failChunk(task, toJobError(err), this.deps).catch(() => undefined);
      const retry = setTimeout(() => {
        this.waiting.push({ task, attempt: attempt + 1 });
        this.pump();
      }, this.deps.retryDelayMs ?? 1000);
      retry.unref();
    }
  }
}
