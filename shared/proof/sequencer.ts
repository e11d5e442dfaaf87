/**
 * The log's group commit on one node (docs/decisions.md "Proof of existence"): leaves wait in a
 * queue, and one batch at a time is written to the store (shared/store/kysely-log.ts) in one
 * transaction with the checkpoint signed for it, so each leaf's receipt needs nothing more from the
 * database. The node's tree (`tree`) takes the batch's leaves only once they are committed.
 */
import type { AppendOutcome, LogStore, NewLeaf, StoredCheckpoint, StoredLeaf } from '../store/log-store.js';
import { outsideRequest } from '../trace.js';
import { hashLeaf, type MemoryTree, type TreeExtension } from './merkle.js';

/** Leaves per transaction at most; the rest wait for the next. */
const MAX_BATCH = 1000;
/** Leaves read per query while catching up. */
const SYNC_PAGE = 5000;

/**
 * A leaf waiting for its batch, told where it went: no promise, closure or second object per leaf,
 * since every request waiting for a batch holds what it allocated across the young generation's
 * collections (docs/decisions.md "Proof of existence"). Exactly one of the two is called, once.
 */
export interface QueuedLeaf extends NewLeaf {
  /** Committed: its index, and its batch's checkpoint when the batch added it. */
  placed(index: number, checkpoint: StoredCheckpoint | undefined): void;
  failed(err: unknown): void;
}

export interface SequencerHooks {
  /** The signed note of the checkpoint of `size` leaves with `root`. */
  sign(size: number, root: Buffer): string;
  /** A batch and its checkpoint are committed. */
  committed(checkpoint: StoredCheckpoint): void;
}

/** What a sealed batch adds to the node's tree once committed. */
interface Tail {
  /** The tree's size when the batch was sealed, and the leaf hashes from there. */
  readonly from: number;
  readonly hashes: readonly Buffer[];
  /** The tree grown by the hashes it lacked at sealing, its inner hashes already computed. */
  readonly extension: TreeExtension;
}

export class Sequencer {
  readonly #pending: QueuedLeaf[] = [];
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
  enqueue(leaf: QueuedLeaf): void {
    this.#pending.push(leaf);
    if (this.#flushing) return;
    this.#flushing = true;
    // The first write waits for the end of this event-loop turn, so every request parsed in the
    // turn joins it (SQLite's driver is synchronous: a flush started at once would commit each
    // request's leaf alone). It runs as background work: a batch is many requests' and may wait
    // for another node's lock, so it must not spend the PG_REQUEST_TIMEOUT_MS of the request
    // that started it.
    setImmediate(() => outsideRequest(() => void this.#flush()));
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, MAX_BATCH);
        let outcome: AppendOutcome;
        try {
          outcome = await this.#commit(batch);
        } catch (err) {
          for (const leaf of batch) tellFailed(leaf, err);
          continue;
        }
        this.#deliver(batch, outcome);
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** Appends `batch` with its checkpoint; once committed, the tree takes the leaves it lacks. */
  async #commit(batch: readonly QueuedLeaf[]): Promise<AppendOutcome> {
    let tail: Tail | undefined;
    const outcome = await this.store.append(batch, async (b) => {
      const sealed = await this.#seal(b.first, b.added, b.read);
      tail = sealed.tail;
      return sealed.checkpoint;
    });
    // A sync may have brought the tree on meanwhile: then it takes only what it still lacks.
    if (tail && !tail.extension.commit()) {
      for (let i = this.tree.size - tail.from; i < tail.hashes.length; i++) this.tree.appendLeafHash(tail.hashes[i]!);
    }
    if (outcome.checkpoint) this.hooks.committed(outcome.checkpoint);
    return outcome;
  }

  /**
   * Tells each leaf of a committed batch where it went. A leaf this batch added gets its
   * checkpoint; a key repeated in the batch, like a key logged before, keeps the first leaf, whose
   * bytes only the store has. One leaf's failure to take its place is that leaf's alone.
   */
  #deliver(batch: readonly QueuedLeaf[], outcome: AppendOutcome): void {
    const end = outcome.first + outcome.added;
    let claimed: Set<number> | undefined;
    for (let i = 0; i < batch.length; i++) {
      const leaf = batch[i]!;
      const index = outcome.indices[i]!;
      let added = index >= outcome.first && index < end;
      // Only a keyed leaf can share its index (log-indices.ts).
      if (added && leaf.key !== undefined) {
        claimed ??= new Set();
        added = !claimed.has(index);
        claimed.add(index);
      }
      try {
        leaf.placed(index, added ? outcome.checkpoint : undefined);
      } catch (err) {
        tellFailed(leaf, err);
      }
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
  ): Promise<{ checkpoint: StoredCheckpoint; tail: Tail }> {
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
    for (const hash of added) hashes.push(hash);
    const size = first + added.length;
    // A sync outside this transaction may have brought the tree on meanwhile: only what it lacks is extra.
    const extension = this.tree.extension(hashes.slice(this.tree.size - from));
    const note = this.hooks.sign(size, extension.root);
    return { checkpoint: { size, root: extension.root, note }, tail: { from, hashes, extension } };
  }
}

/**
 * Tells a leaf its batch failed. A waiter that throws even then is left to its request's deadline:
 * the other leaves of the batch must still be told, and the flush, background work, must not reject.
 */
function tellFailed(leaf: QueuedLeaf, err: unknown): void {
  try {
    leaf.failed(err);
  } catch {
    // nothing more this leaf can be told
  }
}
