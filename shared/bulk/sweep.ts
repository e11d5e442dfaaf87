/**
 * Bulk jobs' blobs after their retention: a job's inputs and result parts (`bulk/<id>/…`) are
 * deleted once its record is gone (a finished job's record expires `JOB_RETENTION_SECONDS` after
 * it finished; an intake that failed discards it) and the object is older than the grace, so the
 * results live exactly as long as the job they belong to. Idempotent: any process may run it.
 */
import type { BlobStore } from '../blob/types.js';
import type { Logger } from '../log.js';
import { BULK_BLOB_PREFIX, bulkIdOfKey } from './model.js';
import type { BulkStore } from './store.js';

export interface BulkSweepOptions {
  blobs: BlobStore;
  store: Pick<BulkStore, 'get'>;
  /** An object younger than this is kept whatever its record says (BLOB_SWEEP_GRACE_SECONDS). */
  graceMs: number;
  logger: Logger;
  signal?: AbortSignal;
  now?: number;
}

export async function sweepBulkBlobs(options: BulkSweepOptions): Promise<{ deleted: number }> {
  const { blobs, store, logger } = options;
  const cutoff = (options.now ?? Date.now()) - options.graceMs;
  const live = new Map<string, boolean>();
  let deleted = 0;
  for await (const page of blobs.list(BULK_BLOB_PREFIX)) {
    if (options.signal?.aborted === true) break;
    for (const object of page) {
      const id = bulkIdOfKey(object.key);
      if (id === undefined || object.lastModified > cutoff) continue;
      let known = live.get(id);
      if (known === undefined) {
        known = (await store.get(id)) !== undefined;
        live.set(id, known);
      }
      if (known) continue;
      await blobs.delete(object.key);
      deleted++;
    }
  }
  if (deleted > 0) logger.info({ deleted }, 'bulk blobs past their job’s retention deleted');
  return { deleted };
}
