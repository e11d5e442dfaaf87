import type { IncomingMessage } from 'node:http';
import type { BlobStore } from '../../shared/blob/types.js';
import { fileTooLarge } from '../../shared/blob/byte-limit.js';
import { ServiceError } from '../../shared/errors.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';
import { detachedSource } from './detached-source.js';

/**
 * Stream a raw `application/octet-stream` body (SPEC "POST /v2/stream") into the blob store,
 * counting bytes; never held whole in memory.
 */
export async function receiveRawBody(req: IncomingMessage, options: { blobs: BlobStore; key: string; maxBytes: number }): Promise<BlobRef> {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/octet-stream') {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be application/octet-stream', details: 'header: content-type' });
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) throw fileTooLarge(options.maxBytes);
  return options.blobs.put(options.key, detachedSource(req), { maxBytes: options.maxBytes });
}
