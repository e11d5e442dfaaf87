/**
 * GET /v2/bulk/{id}/results: the job's result parts, concatenated from the blob store in chunk
 * order, so the lines come in input order. Nothing is buffered: each part is piped through in
 * turn. The whole answer is gzip when the caller accepts it; a `Range` (RFC 9110 §14) is answered
 * from the identity bytes only, 206 and never gzip, since those bytes are what a resumed download
 * counts and a gzip stream's bytes are not fixed (docs/api.md "Bulk jobs").
 */
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Request, Response } from 'express';
import type { BlobStore } from '../../shared/blob/types.js';
import { chunkOutputKey, type BulkRecord } from '../../shared/bulk/model.js';
import { isFinished, type BulkStore } from '../../shared/bulk/store.js';
import { isServiceError, ServiceError } from '../../shared/errors.js';
import { resolveRange } from './bulk-range.js';

const NDJSON = 'application/x-ndjson';

/** One result part to send: its key and, when the store recorded it, its size. */
interface Part {
  key: string;
  size: number | undefined;
}

export async function sendResults(blobs: BlobStore, store: BulkStore, record: BulkRecord, req: Request, res: Response): Promise<void> {
  if (!isFinished(record))
    throw new ServiceError('CONFLICT', { details: `bulk job ${record.id} is ${record.state}; its results come once it has finished` });
  const parts = await resultParts(store, record);
  res.setHeader('Vary', 'Accept-Encoding');
  const sized = parts.every((part) => part.size !== undefined);
  if (sized) {
    const length = parts.reduce((sum, part) => sum + part.size!, 0);
    res.setHeader('Accept-Ranges', 'bytes');
    const range = resolveRange(req.get('range'), req.get('if-range'), length);
    if (range.kind === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${length}`);
      throw new ServiceError('RANGE_NOT_SATISFIABLE', { details: `the results are ${length} bytes` });
    }
    if (range.kind === 'part') return sendRange(blobs, parts, range.first, range.last, length, res);
  }
  return sendWhole(blobs, parts, req, res);
}

/**
 * The parts that make up the results. Sizes are recorded as chunks are counted: then the parts are
 * exactly the counted chunks' (a cancelled job's chunks that were skipped have none). A job whose
 * chunks were counted before sizes were recorded sends whichever parts exist, and takes no Range.
 */
async function resultParts(store: BulkStore, record: BulkRecord): Promise<Part[]> {
  const sizes = await store.partSizes(record.id, record.chunks);
  const recorded = sizes.filter((size) => size !== undefined).length;
  const all = sizes.map((size, index) => ({ key: chunkOutputKey(record.id, index), size }));
  if (recorded < record.chunksDone) return all.map((part) => ({ ...part, size: undefined }));
  return all.filter((part) => part.size !== undefined && part.size > 0);
}

async function sendWhole(blobs: BlobStore, parts: readonly Part[], req: Request, res: Response): Promise<void> {
  // Open the first part before answering: a store that is away is a 503, not a cut-off 200.
  let next = await openPart(blobs, parts, 0);
  res.status(200);
  res.setHeader('Content-Type', NDJSON);
  const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip' ? createGzip() : undefined;
  if (gzip !== undefined) res.setHeader('Content-Encoding', 'gzip');
  const out = gzip ?? res;
  const done = gzip === undefined ? Promise.resolve() : pipeline(gzip, res);
  try {
    while (next !== undefined) {
      for await (const piece of next.stream as AsyncIterable<Buffer>) await write(out, piece, res);
      next = await openPart(blobs, parts, next.index + 1);
    }
    out.end();
    await done;
  } catch (err) {
    cut(res, err);
  }
}

/** Bytes `first`…`last` of the concatenated parts: the parts before the range are not read at all. */
async function sendRange(
  blobs: BlobStore,
  parts: readonly Part[],
  first: number,
  last: number,
  length: number,
  res: Response,
): Promise<void> {
  let offset = 0;
  let index = 0;
  while (index < parts.length && offset + parts[index]!.size! <= first) offset += parts[index++]!.size!;
  // Every sized part exists (a counted chunk's): opened strictly, since a gap would shift the bytes after it.
  const open = async (at: number): Promise<{ index: number; stream: NodeJS.ReadableStream } | undefined> =>
    at < parts.length ? { index: at, stream: await blobs.get(parts[at]!.key) } : undefined;
  let next = await open(index);
  res.status(206);
  res.setHeader('Content-Type', NDJSON);
  res.setHeader('Content-Range', `bytes ${first}-${last}/${length}`);
  res.setHeader('Content-Length', String(last - first + 1));
  try {
    while (next !== undefined && offset <= last) {
      const partStart = offset;
      let read = 0;
      for await (const piece of next.stream as AsyncIterable<Buffer>) {
        const from = Math.max(0, first - (partStart + read));
        const to = Math.min(piece.length, last + 1 - (partStart + read));
        read += piece.length;
        if (to > from) await write(res, piece.subarray(from, to), res);
        if (partStart + read > last) break;
      }
      // A part whose bytes differ from its recorded size would shift every later byte: cut rather than mislead.
      if (read !== parts[next.index]!.size! && partStart + read <= last) throw new Error(`result part ${next.index} changed size`);
      offset = partStart + parts[next.index]!.size!;
      next = offset <= last ? await open(next.index + 1) : undefined;
    }
    res.end();
  } catch (err) {
    cut(res, err);
  }
}

/** Written by hand rather than piped: a pipeline per part would add listeners to `out` each time. */
async function write(out: NodeJS.WritableStream, piece: Buffer, res: Response): Promise<void> {
  if (res.destroyed) throw new Error('caller gone');
  if (!out.write(piece)) await once(out, 'drain');
}

/** Mid-answer: nothing left to say but a cut connection, which the caller sees as an incomplete body. */
function cut(res: Response, err: unknown): void {
  res.destroy(err instanceof Error ? err : new Error(String(err)));
}

/** The part at or after `from` that exists (a finished job's parts live as long as its record). */
async function openPart(
  blobs: BlobStore,
  parts: readonly Part[],
  from: number,
): Promise<{ index: number; stream: NodeJS.ReadableStream } | undefined> {
  for (let index = from; index < parts.length; index++) {
    try {
      return { index, stream: await blobs.get(parts[index]!.key) };
    } catch (err) {
      // A chunk that failed for good with its input unreadable, or (sizes unknown) a cancelled job's skipped chunk, has no part.
      if (!(isServiceError(err) && err.code === 'NOT_FOUND')) throw err;
    }
  }
  return undefined;
}
