import type { BlobSink } from '../../shared/blob/types.js';
import type { RequestBody } from './request-body.js';

/**
 * One cleanup path for receiving an upload. `receive` reads `body` and starts at most one blob
 * upload under `key`, reported through `track`. If anything fails (a refusal, a malformed body, the
 * client gone, the store down), the rest of the body is discarded (bounded, so the 4xx can still be
 * read), the upload is let settle (a local-disk write still renames its temp file on success, so
 * deleting earlier could race it), its blob is deleted, and only then is the error rethrown.
 */
export async function storeOrCleanUp<T>(
  body: RequestBody,
  blobs: BlobSink,
  key: string,
  receive: (track: (upload: Promise<unknown>) => void) => Promise<T>,
): Promise<T> {
  let upload: Promise<unknown> | undefined;
  try {
    return await receive((started) => {
      upload = started;
    });
  } catch (err) {
    body.discardRest();
    if (upload !== undefined) {
      await upload.catch(() => undefined);
      // Idempotent; a store that is down now leaves the blob to the periodic sweep.
      await blobs.delete(key).catch(() => undefined);
    }
    throw err;
  }
}
