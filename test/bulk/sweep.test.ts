/**
 * Bulk jobs' blobs are swept with their job (shared/bulk/sweep.ts): kept while the job's record
 * lives (running, or finished within JOB_RETENTION_SECONDS), deleted once it has expired and the
 * object is past the grace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { chunkInputKey, chunkOutputKey } from '../../shared/bulk/model.js';
import { MemoryBulkStore } from '../../shared/bulk/store.js';
import { sweepBulkBlobs } from '../../shared/bulk/sweep.js';
import { createLogger } from '../../shared/log.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function stored(blobs: LocalDiskBlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of blobs.list(prefix)) keys.push(...page.map((o) => o.key));
  return keys.sort();
}

describe('sweepBulkBlobs', () => {
  it("keeps a live job's blobs and deletes those of a job whose record expired", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bulk-sweep-'));
    dirs.push(dir);
    const blobs = new LocalDiskBlobStore(dir);
    const retentionMs = 60_000;
    const store = new MemoryBulkStore(retentionMs);
    const now = Date.now();
    for (const id of ['live', 'old']) {
      await store.open({ id, accountId: 'a', source: 'items', createdAt: now }, 10);
      await store.start(id, 1, 1, now);
      for (const key of [chunkInputKey(id, 0), chunkOutputKey(id, 0)]) await blobs.put(key, Readable.from(['x\n']), { maxBytes: 100 });
    }
    // "old" finished long ago: its record is past the retention.
    await store.chunkFinished('old', 0, { done: 1, failed: 0, bytes: 1 }, now - 2 * retentionMs);
    const logger = createLogger('silent');
    // Within the grace nothing is deleted, whatever the record says.
    expect(await sweepBulkBlobs({ blobs, store, graceMs: 3_600_000, logger })).toEqual({ deleted: 0 });
    expect(await sweepBulkBlobs({ blobs, store, graceMs: 0, logger, now: now + 1000 })).toEqual({ deleted: 2 });
    expect(await stored(blobs, 'bulk/')).toEqual([chunkInputKey('live', 0), chunkOutputKey('live', 0)]);
  });
});
