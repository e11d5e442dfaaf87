/**
 * One pass of the resumable-upload sweep: deletes the PATCH segments (RESUMABLE_BLOB_PREFIX) of
 * uploads that expired, finished, were terminated or are unknown, and segments an upload's record
 * does not list once they are older than `graceMs` (a node died between storing a segment and
 * committing it), then aborts unfinished writes (S3 multipart uploads, local `.part` files) idle
 * as long. Expired uploads also lose their bytes the moment a request touches them
 * (api/operations/resumable.ts); this is what reclaims the ones nobody asks about again.
 * Idempotent: two sweeps at once delete the same objects.
 */
import type { BlobStore } from '../blob/types.js';
import type { Logger } from '../log.js';
import { RESUMABLE_BLOB_PREFIX, resumableUploadIdOf } from '../naming.js';
import { isExpired, type ResumableRecord } from './record.js';
import type { ResumableStore } from './store.js';

export interface ResumableSweepOptions {
  blobs: BlobStore;
  store: Pick<ResumableStore, 'get'>;
  /** How old a segment its record does not list must be before it goes. */
  graceMs: number;
  logger: Logger;
  now?: () => number;
  signal?: AbortSignal;
}

export interface ResumableSweepReport {
  listed: number;
  deleted: number;
  abortedUploads: number;
}

export async function sweepResumableUploads(options: ResumableSweepOptions): Promise<ResumableSweepReport> {
  const { blobs, store, graceMs, signal } = options;
  const now = (options.now ?? Date.now)();
  const report: ResumableSweepReport = { listed: 0, deleted: 0, abortedUploads: 0 };
  for await (const page of blobs.list(RESUMABLE_BLOB_PREFIX)) {
    signal?.throwIfAborted();
    report.listed += page.length;
    const records = new Map<string, ResumableRecord | undefined>();
    for (const blob of page) {
      const id = resumableUploadIdOf(blob.key);
      if (id === undefined) continue;
      if (!records.has(id)) records.set(id, await store.get(id));
      const record = records.get(id);
      const listed = record?.segments.some((segment) => segment.key === blob.key) ?? false;
      const gone = record === undefined || isExpired(record, now) || record.jobId !== undefined;
      if (gone || (!listed && blob.lastModified < now - graceMs)) {
        await blobs.delete(blob.key);
        report.deleted++;
      }
    }
  }
  signal?.throwIfAborted();
  report.abortedUploads = await blobs.abortStaleUploads(RESUMABLE_BLOB_PREFIX, now - graceMs);
  options.logger[report.deleted > 0 || report.abortedUploads > 0 ? 'info' : 'debug']({ ...report }, 'resumable upload sweep done');
  return report;
}
