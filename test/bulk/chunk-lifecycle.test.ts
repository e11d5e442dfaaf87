/**
 * Bulk jobs' blobs are swept with their job (shared/bulk/sweep.ts): kept while the job's record
 * lives (running, or finished within JOB_RETENTION_SECONDS), deleted once it has expired and the
 * object is past the grace. A chunk out of attempts ends as error lines, and its job completes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { InProcessChunkQueue } from '../../shared/bulk/chunks.js';
import { chunkInputKey, chunkOutputKey } from '../../shared/bulk/model.js';
import { MemoryBulkStore } from '../../shared/bulk/store.js';
import { sweepBulkBlobs } from '../../shared/bulk/sweep.js';
import { ServiceError } from '../../shared/errors.js';
import { createLogger } from '../../shared/log.js';
import { waitFor } from '../helpers/wait.js';

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
    await store.chunkFinished('old', 0, { done: 1, failed: 0, bytes: 1, partBytes: 2 }, now - 2 * retentionMs);
    const logger = createLogger('silent');
    // Within the grace nothing is deleted, whatever the record says.
    expect(await sweepBulkBlobs({ blobs, store, graceMs: 3_600_000, logger })).toEqual({ deleted: 0 });
    expect(await sweepBulkBlobs({ blobs, store, graceMs: 0, logger, now: now + 1000 })).toEqual({ deleted: 2 });
    expect(await stored(blobs, 'bulk/')).toEqual([chunkInputKey('live', 0), chunkOutputKey('live', 0)]);
  });
});

describe('a chunk out of attempts', () => {
  it('becomes error lines carrying the failure, and its job still completes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bulk-fail-'));
    dirs.push(dir);
    const blobs = new LocalDiskBlobStore(dir);
    const store = new MemoryBulkStore(60_000);
    const now = Date.now();
    await store.open({ id: 'j', accountId: 'a', source: 'items', createdAt: now }, 1);
    await store.start('j', 3, 2, now);
    await blobs.put(chunkInputKey('j', 0), Readable.from(['{"id":"a","data":"abc"}\n{"id":"b","data":""}\n']), { maxBytes: 1000 });
    await blobs.put(chunkInputKey('j', 1), Readable.from(['{"id":"c","data":"x"}\n']), { maxBytes: 1000 });
    let calls = 0;
    const queue = new InProcessChunkQueue({
      store,
      blobs,
      logger: createLogger('silent'),
      concurrency: 1,
      attempts: 2,
      retryDelayMs: 1,
      // Chunk 1 always fails (a store that stays away); chunk 0 is hashed.
      process: async (task, ctx) => {
        calls++;
        if (task.index === 1) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the store is away' });
        const text = '{"id":"a","hash":"h","bytes":3}\n{"id":"b","hash":"h","bytes":0}\n';
        await ctx.blobs.put(chunkOutputKey(task.bulkId, task.index), Readable.from([text]), { maxBytes: 1000 });
        return { done: 2, failed: 0, bytes: 3, partBytes: text.length };
      },
    });
    await queue.enqueue([
      { bulkId: 'j', accountId: 'a', index: 0, source: 'items', items: 2 },
      { bulkId: 'j', accountId: 'a', index: 1, source: 'items', items: 1 },
    ]);
    const done = await waitFor(async () => ((await store.get('j'))?.state === 'completed' ? store.get('j') : undefined));
    expect(done).toMatchObject({ done: 2, failed: 1, chunksDone: 2 });
    expect(calls).toBe(3);
    const part = await blobs.get(chunkOutputKey('j', 1));
    let text = '';
    for await (const piece of part) text += String(piece);
    expect(JSON.parse(text.trim())).toEqual({
      id: 'c',
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: 'the store is away' },
    });
  });
});
