/**
 * A sink for bytes nobody will read again: counted, held to the size limit as the blob store
 * holds them, and dropped. A resumable upload's PATCH goes here where its record dies with this
 * process (embedded mode), whose hash is then the only reader its bytes would have had
 * (api/operations/resumable.ts, docs/decisions.md "Resumable uploads").
 */
import { finished } from 'node:stream';
import { fileTooLarge } from '../../shared/blob/byte-limit.js';
import type { BlobSink } from '../../shared/blob/types.js';
import type { BlobRef } from '../../shared/jobs/contracts.js';

export const discardSink: BlobSink = {
  put(key, source, { maxBytes }): Promise<BlobRef> {
    return new Promise((resolve, reject) => {
      let size = 0;
      source.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) source.destroy(fileTooLarge(maxBytes));
      });
      finished(source, (err) => (err ? reject(err) : resolve({ key, size })));
    });
  },
  delete: () => Promise.resolve(),
};
