/**
 * A sink for a synchronous upload that keeps nothing: the bytes are hashed and counted as they
 * arrive, under the same size limit as the blob store, and dropped. Receiving the bytes is the
 * physical limit; writing them to the blob store and reading them back on a worker doubled the
 * work for an answer the caller waits for (docs/decisions.md "Jobs and modes", README
 * "Performance").
 */
import { pipeline } from 'node:stream';
import { ByteLimit } from '../../shared/blob/byte-limit.js';
import type { BlobSink } from '../../shared/blob/types.js';
import { sha224Stream } from '../../shared/hashing/sha224.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';

export interface DigestSink extends BlobSink {
  /** The digest and size of what was received; set once `put` has resolved. */
  received(): { digest: Buffer; size: number };
}

export function digestSink(): DigestSink {
  let outcome: { digest: Buffer; size: number } | undefined;
  return {
    async put(key, source, { maxBytes }): Promise<BlobRef> {
      const limited = new ByteLimit(maxBytes);
      // Errors (the client gone, FILE_TOO_LARGE) destroy `limited`, which ends the iteration below with them.
      pipeline(source, limited, () => undefined);
      outcome = await sha224Stream(limited);
      return { key, size: outcome.size };
    },
    delete: () => Promise.resolve(),
    received() {
      if (outcome === undefined) throw new Error('digestSink: received() before the upload finished');
      return outcome;
    },
  };
}
