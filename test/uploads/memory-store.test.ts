/**
 * shared/uploads/memory-store.ts: embedded mode's records. An upload nobody asks about again is
 * forgotten once past its keepUntil, though no stored byte brings the sweep to it (embedded mode
 * stores none), when a later upload is created.
 */
import { describe, expect, it } from 'vitest';
import { MemoryResumableStore } from '../../shared/uploads/memory-store.js';
import type { ResumableRecord } from '../../shared/uploads/record.js';

const record = (id: string): ResumableRecord => ({
  id,
  accountId: 'acct',
  length: 10,
  offset: 0,
  maxBytes: 10,
  rawMetadata: undefined,
  filename: 'f',
  expectedSha224: undefined,
  createdAt: 0,
  expiresAt: 0,
  segments: [],
  hashState: '',
  hashTag: '',
});

describe('MemoryResumableStore', () => {
  it('does not outlive the process, and forgets records past their keepUntil as new ones are created', async () => {
    let now = 0;
    const store = new MemoryResumableStore(1000, () => now);
    expect(store.outlivesProcess).toBe(false);
    expect(await store.create(record('a'), 100)).toBe(true);
    expect(await store.create(record('b'), 200)).toBe(true);
    now = 150;
    expect(await store.create(record('c'), 300)).toBe(true);
    // 'a' was forgotten by that creation without anyone asking for it; 'b' is still due.
    expect(store.size).toBe(2);
    expect((await store.get('b'))?.id).toBe('b');
    now = 350;
    expect(await store.create(record('d'), 500)).toBe(true);
    expect(store.size).toBe(1);
    expect((await store.get('d'))?.id).toBe('d');
  });
});
