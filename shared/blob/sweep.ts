/**
 * One pass of the blob sweep: the persisted backstop of blob retention (docs/decisions.md "Jobs
 * and modes"). A finished job's blob is deleted by its worker's timer (BLOB_RETENTION_SECONDS),
 * but that timer dies with its process, a delete can fail while S3 is down, and an API node can
 * die between an upload and its enqueue. The sweep lists what is stored under `uploads/` and
 * deletes what no live job references once it is older than the retention plus a grace, then
 * aborts the uploads a dead node left unfinished.
 *
 * It is idempotent: two sweeps at once delete the same blobs, and deleting an absent blob succeeds.
 */
import type { Logger } from '../log.js';
import { UPLOADS_BLOB_PREFIX } from '../naming.js';
import type { BlobStore } from './types.js';

export interface BlobSweepOptions {
  blobs: BlobStore;
  /**
   * Keys of the blobs referenced by live jobs (waiting, active, delayed, prioritized). Read after
   * each listing page that holds a candidate, so a job enqueued before that read protects its blob.
   */
  liveBlobKeys: () => Promise<ReadonlySet<string>>;
  /** BLOB_RETENTION_SECONDS in ms. */
  retentionMs: number;
  /** BLOB_SWEEP_GRACE_SECONDS in ms: the longest a blob's job may spend between upload and finish. */
  graceMs: number;
  logger: Logger;
  /** Clock (epoch ms); tests pass a later one instead of waiting. */
  now?: () => number;
  /** Aborted between pages (the sweeper closing). */
  signal?: AbortSignal;
}

export interface BlobSweepReport {
  /** Blobs listed. */
  listed: number;
  /** Blobs old enough to go, kept because a live job references them. */
  referenced: number;
  deleted: number;
  /** Unfinished uploads aborted (S3 multipart uploads, local `.part` files). */
  abortedUploads: number;
}

/** Deletes run a few at a time: fast enough after an outage left thousands, gentle on the store. */
const DELETE_CONCURRENCY = 4;

export async function sweepBlobs(options: BlobSweepOptions): Promise<BlobSweepReport> {
  const { blobs, retentionMs, graceMs, signal } = options;
  const now = (options.now ?? Date.now)();
  const storedBefore = now - retentionMs - graceMs;
  const report: BlobSweepReport = { listed: 0, referenced: 0, deleted: 0, abortedUploads: 0 };
  for await (const page of blobs.list(UPLOADS_BLOB_PREFIX)) {
    signal?.throwIfAborted();
    report.listed += page.length;
    const old = page.filter((blob) => blob.lastModified < storedBefore);
    if (old.length === 0) continue;
    const live = await options.liveBlobKeys();
    const orphans = old.filter((blob) => !live.has(blob.key));
    report.referenced += old.length - orphans.length;
    for (let i = 0; i < orphans.length; i += DELETE_CONCURRENCY) {
      signal?.throwIfAborted();
      await Promise.all(orphans.slice(i, i + DELETE_CONCURRENCY).map((blob) => blobs.delete(blob.key)));
      report.deleted += Math.min(DELETE_CONCURRENCY, orphans.length - i);
    }
  }
  signal?.throwIfAborted();
  report.abortedUploads = await blobs.abortStaleUploads(UPLOADS_BLOB_PREFIX, now - graceMs);
  const level = report.deleted > 0 || report.abortedUploads > 0 ? 'info' : 'debug';
  options.logger[level]({ ...report }, 'blob sweep done');
  return report;
}
