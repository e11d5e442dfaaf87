import { sha224Stream } from '../../shared/hashing/sha224.js';
import { ServiceError } from '../../shared/errors.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';
import { uploadResult } from '../../shared/jobs/compute.js';
import type { JobContext, JobHandler } from '../../shared/queue/types.js';

/**
 * Hash an uploaded object by streaming it back from the blob store in large reads. `for await`
 * yields to the event loop between chunks, so BullMQ's lock renewal keeps running on a 1 GiB
 * object and memory stays at one chunk.
 */
async function digestBlob(blob: BlobRef, ctx: JobContext): Promise<{ digest: Buffer; size: number }> {
  const source = await ctx.blobs.get(blob.key);
  const { digest, size } = await sha224Stream(source);
  if (size !== blob.size) {
    // The stored object is not what the API node counted: never report a digest of other bytes.
    throw new ServiceError('INTERNAL_ERROR', { cause: new Error(`blob ${blob.key}: expected ${blob.size} bytes, read ${size}`) });
  }
  return { digest, size };
}

export const fileHandler: JobHandler<'file'> = async (payload, ctx) => {
  // A resumable upload was hashed as it arrived; its bytes are already gone (docs/decisions.md "Resumable uploads").
  if (payload.digested !== undefined) return uploadResult(payload, Buffer.from(payload.digested.digest, 'hex'), payload.digested.size);
  const { digest, size } = await digestBlob(payload.blob, ctx);
  return uploadResult(payload, digest, size);
};

export const streamHandler: JobHandler<'stream'> = async (payload, ctx) => {
  const { digest, size } = await digestBlob(payload.blob, ctx);
  return uploadResult(payload, digest, size);
};
