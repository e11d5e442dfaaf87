/**
 * The sequencer tells every leaf of a batch where it went or that it failed, even when one leaf's
 * waiter throws: the others are still told and the background flush never rejects (an unhandled
 * rejection would fail this file).
 */
import { describe, expect, it } from 'vitest';
import { hashLeaf, MemoryTree } from '../../shared/proof/merkle.js';
import { Sequencer, type QueuedLeaf } from '../../shared/proof/sequencer.js';
import type { AppendOutcome, LogStore, NewLeaf } from '../../shared/store/log-store.js';
import { waitFor } from '../helpers/wait.js';

interface Told {
  placed?: number;
  failed?: unknown;
}

function leaf(n: number, told: Told, throwing: boolean): QueuedLeaf {
  const bytes = Buffer.from(`leaf ${n}`);
  return {
    leaf: bytes,
    leafHash: hashLeaf(bytes),
    placed(index) {
      told.placed = index;
      if (throwing) throw new Error('the answer could not be written');
    },
    failed(err) {
      told.failed = err;
      if (throwing) throw new Error('nor could the error');
    },
  };
}

/** A store that appends in memory, or refuses every batch with `refusal`. */
function store(refusal?: Error): LogStore {
  let size = 0;
  return {
    async append(leaves: readonly NewLeaf[], seal): Promise<AppendOutcome> {
      if (refusal) throw refusal;
      const first = size;
      const checkpoint = await seal?.({ first, added: leaves.map((l) => l.leafHash), read: () => Promise.resolve([]) });
      size += leaves.length;
      return { indices: leaves.map((_, i) => first + i), first, added: leaves.length, checkpoint };
    },
  } as LogStore;
}

const hooks = { sign: (size: number) => `note ${size}`, committed: () => undefined };

describe('Sequencer', () => {
  it('a refused batch: every leaf is told, the one whose waiter throws too', async () => {
    const refusal = new Error('database unavailable');
    const told: Told[] = [{}, {}, {}];
    const sequencer = new Sequencer(store(refusal), new MemoryTree(), hooks);
    told.forEach((t, i) => sequencer.enqueue(leaf(i, t, i === 0)));
    await waitFor(() => told.every((t) => t.failed !== undefined), { what: 'every leaf told of the failure' });
    expect(told.map((t) => t.failed)).toEqual([refusal, refusal, refusal]);
  });

  it('a committed batch: a leaf whose answer throws is told it failed, and the rest are placed in order', async () => {
    const told: Told[] = [{}, {}, {}];
    const sequencer = new Sequencer(store(), new MemoryTree(), hooks);
    told.forEach((t, i) => sequencer.enqueue(leaf(i, t, i === 1)));
    await waitFor(() => told.every((t) => t.placed !== undefined), { what: 'every leaf placed' });
    expect(told.map((t) => t.placed)).toEqual([0, 1, 2]);
    expect(told.map((t) => (t.failed as Error | undefined)?.message)).toEqual([undefined, 'the answer could not be written', undefined]);
    // The sequencer still takes batches after both.
    const later: Told = {};
    sequencer.enqueue(leaf(3, later, false));
    await waitFor(() => later.placed !== undefined, { what: 'a later leaf placed' });
    expect(later.placed).toBe(3);
  });
});
