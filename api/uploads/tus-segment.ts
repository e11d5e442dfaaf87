/**
 * One tus PATCH body received into one blob-store object (docs/decisions.md "Resumable uploads").
 * The bytes pass through the upload's resumable SHA-224 and, when the client sent
 * Upload-Checksum, through that checksum, on their way to the store; the caller advances the
 * upload's offset only once `put` has stored them all.
 *
 * A client that goes away mid-PATCH does not lose what arrived: the body is ended where it
 * stopped and that prefix is stored and hashed like a whole PATCH (tus 1.0 core: the server keeps
 * the bytes it received), unless a checksum was asked for, which a prefix cannot satisfy.
 */
import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTooLarge } from '../../shared/blob/byte-limit.js';
import type { BlobSink } from '../../shared/blob/types.js';
import { ServiceError } from '../../shared/errors.js';
import type { ResumableHash } from '../../shared/uploads/hash-state.js';
import { meterUpload } from '../http/upload-meter.js';
import { bodyBytesRead } from './received-chunks.js';

/** What each stream between the request and the store holds: node:http's largest received chunk. */
const SEGMENT_BUFFER_BYTES = 64 * 1024;

export interface SegmentChecksum {
  /** node:crypto's name: sha1, sha224, sha256. */
  algorithm: string;
  digest: Buffer;
}

export interface SegmentOptions {
  blobs: BlobSink;
  key: string;
  /** Bytes the upload may still take (its Upload-Length, or the plan's limit while deferred, less its offset). */
  maxBytes: number;
  hash: ResumableHash;
  checksum?: SegmentChecksum;
}

export interface ReceivedSegment {
  size: number;
  /** The client left before its body ended; `size` bytes of it were stored. */
  aborted: boolean;
}

export async function receiveSegment(req: IncomingMessage, res: ServerResponse, options: SegmentOptions): Promise<ReceivedSegment> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    res.setHeader('Connection', 'close');
    throw fileTooLarge(options.maxBytes);
  }
  // The request's chunks are written straight into the tap, which hashes them and is the store's
  // source: one stream between the request and the store, not a buffer in front of it too. One
  // received chunk's worth in each of its buffers: a chunk held while the disk or the store is
  // behind survives the collections of api/uploads/received-chunks.ts, and once promoted its bytes
  // wait for a major one (docs/decisions.md "Speed").
  const tap = new SegmentTap(options.hash, options.maxBytes, options.checksum && createHash(options.checksum.algorithm));
  let aborted = false;
  const onData = (chunk: Buffer): void => {
    const more = tap.write(chunk);
    bodyBytesRead(chunk.length);
    if (!more) req.pause();
  };
  const onDrain = (): void => {
    req.resume();
  };
  const onEnd = (): void => {
    tap.end();
  };
  const onGone = (): void => {
    if (req.complete || aborted) return;
    aborted = true;
    // What node:http had received but not yet handed over (the request was paused while the store
    // was behind) is still readable here, though the request is destroyed: keep it too, or HEAD
    // would report less than arrived. Once destroyed, read() no longer emits 'data'; the listener
    // goes first so that no chunk is written twice either way.
    req.off('data', onData);
    for (let chunk: unknown = req.read(); chunk !== null; chunk = req.read()) {
      if (Buffer.isBuffer(chunk)) {
        tap.write(chunk);
        bodyBytesRead(chunk.length);
      }
    }
    tap.end();
  };
  const detach = (): void => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onGone);
    req.off('error', onGone);
    socket.off('close', onGone);
    tap.off('drain', onDrain);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onGone);
  req.on('error', onGone);
  // A request whose client vanished mid-body is not always told (no 'close' on it): its socket is.
  const socket = req.socket;
  socket.on('close', onGone);
  tap.on('drain', onDrain);
  meterUpload(res, () => tap.bytes);
  if ((req.destroyed || socket.destroyed) && !req.complete) onGone();
  req.resume();

  let stored = false;
  try {
    const blob = await options.blobs.put(options.key, tap, { maxBytes: options.maxBytes });
    stored = true;
    if (blob.size !== tap.bytes)
      throw new ServiceError('INTERNAL_ERROR', { cause: new Error(`stored ${blob.size} of ${tap.bytes} bytes`) });
    if (options.checksum !== undefined) {
      if (aborted) throw new ServiceError('INVALID_INPUT', { message: 'Request body was aborted', details: 'field: body' });
      const computed = tap.checksum();
      if (computed === undefined || !computed.equals(options.checksum.digest)) throw new ServiceError('CHECKSUM_MISMATCH');
    }
    return { size: blob.size, aborted };
  } catch (err) {
    detach();
    tap.destroy();
    if (!req.complete && !req.destroyed) {
      // The rest of the body is not read: answer, then close the connection.
      res.setHeader('Connection', 'close');
      req.resume();
    }
    if (stored) await options.blobs.delete(options.key).catch(() => undefined);
    throw err;
  } finally {
    detach();
  }
}

/** Hashes, counts and bounds the bytes on their way to the store. */
class SegmentTap extends Transform {
  bytes = 0;

  constructor(
    private readonly hash: ResumableHash,
    private readonly maxBytes: number,
    private readonly check: Hash | undefined,
  ) {
    super({ writableHighWaterMark: SEGMENT_BUFFER_BYTES, readableHighWaterMark: SEGMENT_BUFFER_BYTES });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(fileTooLarge(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    this.check?.update(chunk);
    done(null, chunk);
  }

  checksum(): Buffer | undefined {
    return this.check?.digest();
  }
}
