/**
 * The log's group commit on one node (docs/decisions.md "Proof of existence"): leaves wait in a
 * queue, and one batch at a time is written to the store (shared/store/kysely-log.ts) in one
 * transaction with the checkpoint signed for it, so each leaf's receipt needs nothing more from the
 * database. The node's tree (`tree`) takes the batch's leaves only once they are committed.
 */
import type { LogStore, NewLeaf, StoredCheckpoint, StoredLeaf } from '../store/log-store.js';
import { outsideRequest } from '../trace.js';
import { hashLeaf, type MemoryTree } from './merkle.js';

/** Leaves per transaction at most; the rest wait for the next. */
const MAX_BATCH = 1000;
/** Leaves read per query while catching up. */
const SYNC_PAGE = 5000;

/** Where a leaf went: its index, and the checkpoint of its batch when the batch added it. */
export interface Placed {
  readonly index: number;
  readonly checkpoint: StoredCheckpoint | undefined;
}

interface Pending {
  readonly leaf: NewLeaf;
  readonly resolve: (placed: Placed) => void;
  readonly reject: (err: unknown) => void;
}

export interface SequencerHooks {
  /** The signed note of the checkpoint of `size` leaves with `root`. */
  sign(size: number, root: Buffer): string;
  /** A batch and its checkpoint are committed. */
  committed(checkpoint: StoredCheckpoint): void;
}

export class Sequencer {
  readonly #pending: Pending[] = [];
  #flushing = false;

  constructor(
    private readonly store: LogStore,
    private readonly tree: MemoryTree,
    private readonly hooks: SequencerHooks,
  ) {}

  /**
   * Group commit: leaves that arrive while a batch is being written wait for the next one, so
   * concurrent requests share one transaction and one signed checkpoint.
   */
  enqueue(leaf: NewLeaf): Promise<Placed> {
    return new Promise<Placed>((resolve, reject) => {
      this.#pending.push({ leaf, resolve, reject });
      if (this.#flushing) return;
      this.#flushing = true;
      // The first write waits for the end of this event-loop turn, so every request parsed in the
      // turn joins it (SQLite's driver is synchronous: a flush started at once would commit each
      // request's leaf alone). It runs as background work: a batch is many requests' and may wait
      // for another node's lock, so it must not spend the PG_REQUEST_TIMEOUT_MS of the request
      // that started it.
      setImmediate(() => outsideRequest(() => void this.#flush()));
    });
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, MAX_BATCH);
        try {
          let tail: { from: number; hashes: Buffer[] } | undefined;
          const outcome = await this.store.append(
            batch.map((p) => p.leaf),
            async (b) => {
              const sealed = await this.#seal(b.first, b.added, b.read);
              tail = sealed.tail;
              return sealed.checkpoint;
            },
          );
          // Committed: the tree takes the leaves it lacks (a sync may have read some meanwhile).
          if (tail) for (let i = this.tree.size - tail.from; i < tail.hashes.length; i++) this.tree.appendLeafHash(tail.hashes[i]!);
          if (outcome.checkpoint) this.hooks.committed(outcome.checkpoint);
          // A leaf this batch added gets its checkpoint; a key repeated in the batch, like a key
          // logged before, keeps the first leaf, whose bytes only the store has.
          const end = outcome.first + outcome.added;
          const claimed = new Set<number>();
          batch.forEach((p, i) => {
            const index = outcome.indices[i]!;
            const added = index >= outcome.first && index < end && !claimed.has(index);
            claimed.add(index);
            p.resolve({ index, checkpoint: added ? outcome.checkpoint : undefined });
          });
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.#flushing = false;
    }
  }

  /**
   * The checkpoint of the tree with `added` at `first`, signed inside the appending transaction. A
   * node that missed leaves other nodes appended reads them there (`read`); the tree itself changes
   * only after the commit, so a failed transaction leaves it as it was.
   */
  async #seal(
    first: number,
    added: readonly Buffer[],
    read: (start: number, limit: number) => Promise<StoredLeaf[]>,
  ): Promise<{ checkpoint: StoredCheckpoint; tail: { from: number; hashes: Buffer[] } }> {
    const from = this.tree.size;
    if (from > first) throw new Error(`transparency log: this node has ${from} leaves, the store ${first}`);
    const hashes: Buffer[] = [];
    while (from + hashes.length < first) {
      const at = from + hashes.length;
      const rows = await read(at, Math.min(SYNC_PAGE, first - at));
      if (rows.length === 0) throw new Error(`transparency log: leaf ${at} is missing`);
      for (const row of rows) {
        if (row.index !== from + hashes.length || !hashLeaf(row.leaf).equals(row.leafHash)) {
          throw new Error(`transparency log: leaf ${row.index} does not follow the tree of ${from + hashes.length}`);
        }
        hashes.push(row.leafHash);
      }
    }
    hashes.push(...added);
    const size = first + added.length;
    // A sync outside this transaction may have brought the tree on meanwhile: only what it lacks is extra.
    const root = this.tree.rootWith(hashes.slice(this.tree.size - from));
    const note = this.hooks.sign(size, root);
    return { checkpoint: { size, root, note }, tail: { from, hashes } };
  }
}
