import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BlobSink } from '../../shared/blob/types.js';
import { fileTooLarge } from '../../shared/blob/byte-limit.js';
import { ServiceError } from '../../shared/errors.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';
import { meterUpload } from '../http/upload-meter.js';
import { assertIdentityEncoding, takeBody } from './request-body.js';
import { storeOrCleanUp } from './store-upload.js';

export interface RawBodyOptions {
  /** The blob store, or a sink that only hashes (api/uploads/digest-sink.ts). */
  blobs: BlobSink;
  key: string;
  maxBytes: number;
  drainMaxBytes: number;
  /** Compute the SHA-224 of the body (idempotency fingerprints). */
  digest?: boolean;
}

/**
 * Stream a raw `application/octet-stream` body (docs/api.md "v2 endpoints") into the blob store,
 * counting bytes; never held whole in memory. Failures clean up as storeOrCleanUp describes.
 */
export function receiveRawBody(
  req: IncomingMessage,
  res: ServerResponse,
  options: RawBodyOptions,
): Promise<{ blob: BlobRef; digest?: string }> {
  const body = takeBody(req, res, { drainMaxBytes: options.drainMaxBytes, digest: options.digest });
  meterUpload(res, () => body.received());
  return storeOrCleanUp(body, options.blobs, options.key, async (track) => {
    const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (type !== 'application/octet-stream') {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', {
        message: 'Content-Type must be application/octet-stream',
        details: 'header: content-type',
      });
    }
    assertIdentityEncoding(req);
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > options.maxBytes) throw fileTooLarge(options.maxBytes);
    const upload = options.blobs.put(options.key, body.stream, { maxBytes: options.maxBytes });
    track(upload);
    const blob = await upload;
    return { blob, digest: body.digest() };
  });
}
