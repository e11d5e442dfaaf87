/**
 * One chunk of a bulk job: read its input lines from the blob store, hash each item, write the
 * result part (one NDJSON line per item, in input order). An item that cannot be hashed (data
 * that does not decode, a URL that fails, an object deleted since the listing) is an error line,
 * never a failed chunk; only the blob store failing fails the chunk, which is then retried alone.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import {
  chunkInputKey,
  chunkOutputKey,
  type ChunkInputLine,
  type ChunkSummary,
  type ChunkTask,
  type ResultLine,
} from '../../shared/bulk/model.js';
import { ChunkCancelled, type ChunkContext, type ChunkProcessor } from '../../shared/bulk/chunks.js';
import type { SecretBox } from '../../shared/webhooks/secrets.js';
import { hashItemChunk } from './item-chunk.js';
import { resultText } from './items.js';
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
  return async (task, ctx) => {
    let part: Buffer;
    let summary: ChunkSummary;
    if (task.source === 'items') {
      const hashed = await hashItemChunk(await readAll(await ctx.blobs.get(chunkInputKey(task.bulkId, task.index))), {
        stillRunning: ctx.stillRunning,
        checkEvery: CANCEL_CHECK_EVERY,
      });
      if (hashed === undefined) throw new ChunkCancelled();
      ({ part, summary } = hashed);
    } else {
      const lines = await readInput(task, ctx);
      const results =
        task.source === 'urls'
          ? await whileRunning(ctx, (signal) => hashUrls(lines, task, options.allowLoopback, signal))
          : // The AWS SDK loads with the first S3 chunk, not at start (test/deploy/bundle-imports.test.ts).
            await whileRunning(ctx, async (signal) => (await import('./s3.js')).hashS3Objects(lines, task, options, signal));
      ({ part, summary } = render(results));
    }
    if (!(await ctx.stillRunning())) throw new ChunkCancelled();
    await ctx.blobs.put(chunkOutputKey(task.bulkId, task.index), Readable.from([part]), { maxBytes: Number.MAX_SAFE_INTEGER });
    return summary;
  };
}

/** URL and S3 chunks' results as their part (a few hundred lines: text is cheap enough). */
function render(results: readonly ResultLine[]): { part: Buffer; summary: ChunkSummary } {
  const summary: ChunkSummary = { done: 0, failed: 0, bytes: 0, partBytes: 0 };
  let text = '';
  for (const line of results) {
    if ('error' in line) summary.failed++;
    else {
      summary.done++;
      summary.bytes += line.bytes;
    }
    text += resultText(line);
  }
  const part = Buffer.from(text, 'utf8');
  summary.partBytes = part.length;
  return { part, summary };
}

/** A chunk's input whole (about a megabyte at the default 10,000 items). */
async function readAll(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array));
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
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
