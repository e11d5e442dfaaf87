/**
 * GET /v2/bulk/{id}/results: the job's result parts, concatenated from the blob store in chunk
 * order, so the lines come in input order; gzip when the caller accepts it. Nothing is buffered:
 * each part is piped through in turn.
 */
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Request, Response } from 'express';
import type { BlobStore } from '../../shared/blob/types.js';
import { chunkOutputKey, type BulkRecord } from '../../shared/bulk/model.js';
import { isFinished } from '../../shared/bulk/store.js';
import { isServiceError, ServiceError } from '../../shared/errors.js';

export async function sendResults(blobs: BlobStore, record: BulkRecord, req: Request, res: Response): Promise<void> {
  if (!isFinished(record))
    throw new ServiceError('CONFLICT', { details: `bulk job ${record.id} is ${record.state}; its results come once it has finished` });
  // Open the first part before answering: a store that is away is a 503, not a cut-off 200.
  const parts = partKeys(record);
  let next = await openPart(blobs, parts, 0);
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson');
  res.setHeader('Vary', 'Accept-Encoding');
  const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip' ? createGzip() : undefined;
  if (gzip !== undefined) res.setHeader('Content-Encoding', 'gzip');
  const out = gzip ?? res;
  const done = gzip === undefined ? Promise.resolve() : pipeline(gzip, res);
  try {
    while (next !== undefined) {
      // Written by hand rather than piped: a pipeline per part would add listeners to `out` each time.
      for await (const piece of next.stream as AsyncIterable<Buffer>) {
        if (res.destroyed) throw new Error('caller gone');
        if (!out.write(piece)) await once(out, 'drain');
      }
      next = await openPart(blobs, parts, next.index + 1);
    }
    out.end();
    await done;
  } catch (err) {
    // Mid-answer: nothing left to say but a cut connection, which the caller sees as an incomplete body.
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  }
}

function partKeys(record: BulkRecord): string[] {
  return Array.from({ length: record.chunks }, (_, index) => chunkOutputKey(record.id, index));
}

/** The part at or after `from` that exists (a finished job's parts live as long as its record). */
async function openPart(
  blobs: BlobStore,
  keys: readonly string[],
  from: number,
): Promise<{ index: number; stream: NodeJS.ReadableStream } | undefined> {
  for (let index = from; index < keys.length; index++) {
    try {
      return { index, stream: await blobs.get(keys[index]!) };
    } catch (err) {
      // A cancelled job's skipped chunks, and a chunk that failed for good with its input unreadable, have no part.
      if (!(isServiceError(err) && err.code === 'NOT_FOUND')) throw err;
    }
  }
  return undefined;
}
