/**
 * The blob sweep on the local-disk store (embedded mode, or DATA_DIR/blobs shared by workers):
 * deletion by age and by reference, the removal of `.part` files a dead process left, paging, and
 * the limits of what it touches. Files are aged with fs.utimes, never by waiting.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { sweepBlobs, type BlobSweepReport } from '../../shared/blob/sweep.js';
import type { StoredBlob } from '../../shared/blob/types.js';
import { createLogger } from '../../shared/log.js';
import { uploadBlobKey } from '../../shared/naming.js';

const HOUR = 3_600_000;
const logger = createLogger('silent');

let root: string;
let store: LocalDiskBlobStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sha224d-sweep-'));
  store = new LocalDiskBlobStore(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(key: string, ageMs = 0): Promise<string> {
  await store.put(key, Readable.from([Buffer.from(key)]), { maxBytes: 1024 });
  if (ageMs > 0) await age(path.join(root, key), ageMs);
  return key;
}

async function age(file: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await utimes(file, then, then);
}

/** A `.part` file as put() names them while writing. */
async function partFile(key: string, ageMs: number): Promise<string> {
  const file = path.join(root, `${key}.${randomUUID()}.part`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'half an upload');
  await age(file, ageMs);
  return file;
}

function sweep(live: string[], options: { retentionMs?: number; graceMs?: number; now?: number } = {}): Promise<BlobSweepReport> {
  const { retentionMs = 0, graceMs = HOUR, now } = options;
  return sweepBlobs({
    blobs: store,
    liveBlobKeys: () => Promise.resolve(new Set(live)),
    retentionMs,
    graceMs,
    logger,
    ...(now === undefined ? {} : { now: () => now }),
  });
}

const exists = (key: string): boolean => existsSync(path.join(root, key));

describe('blob sweep on local disk', () => {
  it('deletes an old unreferenced blob; keeps a referenced one, a young one, and everything outside uploads/', async () => {
    const orphan = await put(uploadBlobKey('acct-a'), 2 * HOUR);
    const referenced = await put(uploadBlobKey('acct-a'), 2 * HOUR);
    const young = await put(uploadBlobKey('acct-b'), HOUR - 60_000);
    const elsewhere = await put('other/old', 30 * 24 * HOUR);

    expect(await sweep([referenced])).toEqual({ listed: 3, referenced: 1, deleted: 1, abortedUploads: 0 });
    expect([orphan, referenced, young, elsewhere].map(exists)).toEqual([false, true, true, true]);
    // Idempotent: nothing more to do.
    expect(await sweep([referenced])).toEqual({ listed: 2, referenced: 1, deleted: 0, abortedUploads: 0 });
  });

  it('keeps a finished blob for BLOB_RETENTION_SECONDS plus the grace', async () => {
    const key = await put(uploadBlobKey('acct'), 3 * HOUR);
    expect(await sweep([], { retentionMs: 2 * HOUR + 60_000 })).toMatchObject({ deleted: 0 });
    expect(exists(key)).toBe(true);
    expect(await sweep([], { retentionMs: 2 * HOUR - 60_000 })).toMatchObject({ deleted: 1 });
    expect(exists(key)).toBe(false);
  });

  it('removes .part files idle for longer than the grace and keeps one being written', async () => {
    const key = uploadBlobKey('acct');
    const stale = await partFile(key, HOUR + 60_000);
    const writing = await partFile(key, 1000);
    const report = await sweep([]);
    expect(report).toEqual({ listed: 0, referenced: 0, deleted: 0, abortedUploads: 1 });
    expect([existsSync(stale), existsSync(writing)]).toEqual([false, true]);
    // A later clock: the one left behind has gone quiet too.
    expect(await sweep([], { now: Date.now() + 2 * HOUR })).toMatchObject({ abortedUploads: 1 });
    expect(existsSync(writing)).toBe(false);
  });

  it('lists in pages of at most 1000 and reads the live jobs once per page holding a candidate', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2500; i++) keys.push(`uploads/acct-${i % 7}/${randomUUID()}`);
    for (let i = 0; i < keys.length; i += 100) await Promise.all(keys.slice(i, i + 100).map((key) => put(key)));

    const pages: StoredBlob[][] = [];
    for await (const page of store.list('uploads/')) pages.push(page);
    expect(pages.map((page) => page.length)).toEqual([1000, 1000, 500]);
    expect(
      pages
        .flat()
        .map((blob) => blob.key)
        .sort(),
    ).toEqual([...keys].sort());
    expect(await collect(store.list('uploads/acct-3/'))).toHaveLength(keys.filter((key) => key.startsWith('uploads/acct-3/')).length);

    let reads = 0;
    const keep = new Set(keys.slice(0, 10));
    const report = await sweepBlobs({
      blobs: store,
      liveBlobKeys: () => {
        reads++;
        return Promise.resolve(keep);
      },
      retentionMs: 0,
      graceMs: HOUR,
      logger,
      now: () => Date.now() + 2 * HOUR,
    });
    expect(report).toEqual({ listed: 2500, referenced: 10, deleted: 2490, abortedUploads: 0 });
    expect(reads).toBe(3);
    expect((await collect(store.list('uploads/'))).sort()).toEqual([...keep].sort());
  });

  it('skips names it would refuse as keys, and a missing uploads/ directory is an empty listing', async () => {
    expect(await sweep([])).toEqual({ listed: 0, referenced: 0, deleted: 0, abortedUploads: 0 });
    await mkdir(path.join(root, 'uploads', 'acct'), { recursive: true });
    const odd = path.join(root, 'uploads', 'acct', 'not a key');
    await writeFile(odd, 'x');
    await age(odd, 2 * HOUR);
    expect(await sweep([])).toEqual({ listed: 0, referenced: 0, deleted: 0, abortedUploads: 0 });
    expect(existsSync(odd)).toBe(true);
  });

  it('deletes nothing when the live jobs cannot be read', async () => {
    const key = await put(uploadBlobKey('acct'), 2 * HOUR);
    const failure = new Error('Redis is away');
    await expect(
      sweepBlobs({ blobs: store, liveBlobKeys: () => Promise.reject(failure), retentionMs: 0, graceMs: HOUR, logger }),
    ).rejects.toBe(failure);
    expect(exists(key)).toBe(true);
  });
});

async function collect(pages: AsyncIterable<StoredBlob[]>): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of pages) keys.push(...page.map((blob) => blob.key));
  return keys;
}
