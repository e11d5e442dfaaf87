/**
 * shared/uploads/sweep.ts over a local-disk blob store: the segments of an upload that expired,
 * finished or is unknown go without any request touching it; a live upload's listed segments
 * stay, and a segment its record does not list goes only once older than the grace.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { createLogger } from '../../shared/log.js';
import { resumableSegmentKey } from '../../shared/naming.js';
import type { ResumableRecord } from '../../shared/uploads/record.js';
import { sweepResumableUploads } from '../../shared/uploads/sweep.js';

const NOW = Date.now();
const HOUR = 3600_000;

const record = (id: string, fields: Partial<ResumableRecord>): ResumableRecord => ({
  id,
  accountId: 'acct',
  length: 100,
  offset: 0,
  maxBytes: 100,
  rawMetadata: undefined,
  filename: 'f',
  expectedSha224: undefined,
  createdAt: NOW - HOUR,
  expiresAt: NOW + 10 * HOUR,
  segments: [],
  hashState: '',
  hashTag: '',
  ...fields,
});

describe('sweepResumableUploads', () => {
  it('deletes the segments of expired, finished and unknown uploads; keeps a live upload’s', async () => {
    const blobs = new LocalDiskBlobStore(mkdtempSync(path.join(tmpdir(), 'sha224d-resumable-sweep-')));
    const id = (n: number): string => String(n).repeat(32);
    const keys = {
      live: resumableSegmentKey('acct', id(1), 0),
      expired: resumableSegmentKey('acct', id(2), 0),
      finished: resumableSegmentKey('acct', id(3), 0),
      unknown: resumableSegmentKey('acct', id(4), 0),
      unlisted: resumableSegmentKey('acct', id(1), 10),
    };
    for (const key of Object.values(keys)) await blobs.put(key, Readable.from([Buffer.alloc(10)]), { maxBytes: 100 });
    const records = new Map<string, ResumableRecord>([
      [id(1), record(id(1), { offset: 10, segments: [{ key: keys.live, size: 10 }] })],
      [id(2), record(id(2), { offset: 10, segments: [{ key: keys.expired, size: 10 }], expiresAt: NOW - 1 })],
      [id(3), record(id(3), { offset: 10, segments: [{ key: keys.finished, size: 10 }], jobId: 'job' })],
    ]);
    const store = { get: (upload: string) => Promise.resolve(records.get(upload)) };
    const listed = async (): Promise<string[]> => {
      const found: string[] = [];
      for await (const page of blobs.list('resumable/')) found.push(...page.map((b) => b.key));
      return found.sort();
    };
    const logger = createLogger('silent');

    // Within the grace, the segment no record lists stays (its PATCH may be committing).
    const first = await sweepResumableUploads({ blobs, store, graceMs: HOUR, logger, now: () => NOW });
    expect(first.deleted).toBe(3);
    expect(await listed()).toEqual([keys.live, keys.unlisted].sort());
    const later = await sweepResumableUploads({ blobs, store, graceMs: HOUR, logger, now: () => NOW + 2 * HOUR - 1 });
    expect(later.deleted).toBe(1);
    expect(await listed()).toEqual([keys.live]);
  });
});
