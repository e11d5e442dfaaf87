/**
 * One chunk of a bulk job: read its input lines from the blob store, hash each item, write the
 * result part (one NDJSON line per item, in input order). An item that cannot be hashed (data
 * that does not decode, a URL that fails, an object deleted since the listing) is an error line,
 * never a failed chunk; only the blob store failing fails the chunk, which is then retried alone.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { chunkInputKey, chunkOutputKey, type ChunkInputLine, type ChunkSummary, type ChunkTask } from '../../shared/bulk/model.js';
import { ChunkCancelled, type ChunkContext, type ChunkProcessor } from '../../shared/bulk/chunks.js';
import type { SecretBox } from '../../shared/webhooks/secrets.js';
import { BufferPool } from './buffer-pool.js';
import { hashItemChunk } from './item-chunk.js';
import { renderResults } from './items.js';
import { hashUrls } from './urls.js';

export interface ChunkProcessorOptions {
  /** URL_FETCH_ALLOW_LOOPBACK (test-only): URLs and S3 endpoints on 127.0.0.1 are allowed. */
  allowLoopback: boolean;
  /** Opens S3 sources' sealed credentials; without it an S3 chunk's items fail. */
  secrets?: SecretBox;
}

/** Between two questions "still running?", this many items are hashed. */
const CANCEL_CHECK_EVERY = 2000;

/**
 * While a URL or S3 chunk waits on the network, its job is asked "still running?" this often; a
 * cancel aborts the fetches in flight, so a cancelled job's chunks stop within about this long
 * plus a round trip (docs/decisions.md "Bulk jobs").
 */
const CANCEL_POLL_MS = 1000;

export function createChunkProcessor(options: ChunkProcessorOptions): ChunkProcessor {
  // Shared by the chunks this processor runs (BULK_CONCURRENCY at once): two buffers each, kept for
  // four, of up to 16 MiB (a default chunk of 10,000 items of up to ~1 KiB).
  const buffers = new BufferPool(4, 16 * 1024 * 1024);
  return async (task, ctx) => {
    if (task.source === 'items') return itemsChunk(task, ctx, buffers);
    const lines = await readInput(task, ctx);
    const results =
      task.source === 'urls'
        ? await whileRunning(ctx, (signal) => hashUrls(lines, task, options.allowLoopback, signal))
        : // The AWS SDK loads with the first S3 chunk, not at start (test/deploy/bundle-imports.test.ts).
          await whileRunning(ctx, async (signal) => (await import('./s3.js')).hashS3Objects(lines, task, options, signal));
    const { part, summary } = renderResults(results);
    if (!(await ctx.stillRunning())) throw new ChunkCancelled();
    await ctx.blobs.put(chunkOutputKey(task.bulkId, task.index), Readable.from([part]), { maxBytes: Number.MAX_SAFE_INTEGER });
    return summary;
  };
}

/** A chunk of NDJSON items, read and written through the pool's buffers (./item-chunk.ts). */
async function itemsChunk(task: ChunkTask, ctx: ChunkContext, buffers: BufferPool): Promise<ChunkSummary> {
  const input = await readAll(await ctx.blobs.get(chunkInputKey(task.bulkId, task.index)), buffers);
  let hashed: Awaited<ReturnType<typeof hashItemChunk>>;
  try {
    // The part is about as long as the input (a 64-byte item's line and its result line are ~90 bytes each).
    const output = buffers.take(input.bytes.length + (input.bytes.length >>> 2));
    hashed = await hashItemChunk(input.bytes, { stillRunning: ctx.stillRunning, checkEvery: CANCEL_CHECK_EVERY, output });
  } finally {
    if (input.pooled !== undefined) buffers.give(input.pooled);
  }
  if (hashed === undefined || !(await ctx.stillRunning())) throw new ChunkCancelled();
  await ctx.blobs.put(chunkOutputKey(task.bulkId, task.index), Readable.from([hashed.part]), { maxBytes: Number.MAX_SAFE_INTEGER });
  // Only a stored part's buffer is used again: after a failed put, a request retried by the SDK might still read it.
  buffers.give(hashed.storage);
  return hashed.summary;
}

/** A chunk's input whole (about a megabyte at the default 10,000 items), joined in a pooled buffer when it came in pieces. */
async function readAll(stream: Readable, buffers: BufferPool): Promise<{ bytes: Buffer; pooled?: Buffer }> {
  const pieces: Buffer[] = [];
  let length = 0;
  for await (const piece of stream) {
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
    pieces.push(bytes);
    length += bytes.length;
  }
  if (pieces.length === 1) return { bytes: pieces[0]! };
  const pooled = buffers.take(length);
  let at = 0;
  for (const piece of pieces) at += piece.copy(pooled, at);
  return { bytes: pooled.subarray(0, length), pooled };
}

/** Runs `work` with a signal that aborts once the job is no longer running (asked every CANCEL_POLL_MS). */
async function whileRunning<T>(ctx: ChunkContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const cancelled = new AbortController();
  let asking = false;
  const poll = setInterval(() => {
    if (asking) return;
    asking = true;
    ctx.stillRunning().then(
      (running) => {
        asking = false;
        if (!running) cancelled.abort(new ChunkCancelled());
      },
      // The store away for a moment: the chunk goes on, and the check after it decides.
      () => (asking = false),
    );
  }, CANCEL_POLL_MS);
  try {
    return await work(cancelled.signal);
  } finally {
    clearInterval(poll);
  }
}

async function readInput(task: ChunkTask, ctx: ChunkContext): Promise<ChunkInputLine[]> {
  const stream = await ctx.blobs.get(chunkInputKey(task.bulkId, task.index));
  const lines: ChunkInputLine[] = [];
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line.length > 0) lines.push(JSON.parse(line) as ChunkInputLine);
  }
  return lines;
}
