/**
 * api/uploads/received-chunks.ts: once BYTES_PER_COLLECTION bytes of request bodies have been
 * read, counted across calls, the young generation is collected on the spot, and the memory of
 * received chunks nothing holds any more is returned. The young generation's used size is the
 * witness of a collection (it falls at once); `arrayBuffers` that of the chunks' memory (freed by
 * V8's sweeper shortly after).
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { BYTES_PER_COLLECTION, bodyBytesRead } from '../../api/uploads/received-chunks.js';
import { waitFor } from '../helpers/wait.js';

const MiB = 1024 * 1024;

function youngUsedBytes(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (space === undefined) throw new Error('no new_space in this V8');
  return space.space_used_size;
}

/** 4 MiB of young garbage: 64 chunks of node:http's 64 KiB, read and dropped, plus small objects. */
function dropReceivedChunks(): void {
  for (let i = 0; i < 64; i++) Buffer.allocUnsafeSlow(64 * 1024).fill(i);
  const small: object[] = [];
  for (let i = 0; i < 20_000; i++) small.push({ i });
  small.length = 0;
}

describe('bodyBytesRead', () => {
  it('collects the young generation when the bytes read by all bodies reach the bound, and only then, returning the chunks', async () => {
    bodyBytesRead(BYTES_PER_COLLECTION); // start from a collection: the count is the module's, shared by every body
    const before = await settledArrayBuffers();
    dropReceivedChunks();
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThanOrEqual(4 * MiB);
    const filled = youngUsedBytes();
    bodyBytesRead(BYTES_PER_COLLECTION / 2);
    bodyBytesRead(BYTES_PER_COLLECTION / 2 - 1);
    expect(youngUsedBytes()).toBeGreaterThanOrEqual(filled);
    bodyBytesRead(1);
    expect(youngUsedBytes()).toBeLessThan(filled / 2);
    await waitFor(() => process.memoryUsage().arrayBuffers - before < 1 * MiB, { what: 'the dropped chunks to be freed' });
  });
});

/** `arrayBuffers` once what earlier collections freed has been swept (two equal readings in a row). */
async function settledArrayBuffers(): Promise<number> {
  let last = -1;
  return waitFor(
    () => {
      const now = process.memoryUsage().arrayBuffers;
      const settled = now === last;
      last = now;
      return settled && now + 1;
    },
    { what: 'arrayBuffers to settle' },
  ).then((n) => n - 1);
}
