/**
 * The transparency log as one API node sees it: appends go to the shared store through one
 * sequencer (shared/store/kysely-log.ts), grouped so concurrent requests share a transaction and
 * the checkpoint signed in it, from which their receipts are built (docs/decisions.md "Proof of
 * existence"); the node mirrors the committed leaf hashes in memory (MemoryTree, synced in index
 * order) and answers roots, proofs and tiles from it. Checkpoints are also signed on a timer and on
 * demand. Ed25519 is
 * deterministic, so the checkpoint for a size is the same bytes whoever signs it; the published
 * one only grows (the store refuses a smaller one).
 */
import type { LogStore, NewLeaf, StoredCheckpoint, StoredLeaf } from '../store/kysely-log.js';
import { checkpointText, signCheckpoint } from './checkpoint.js';
import { accountTag, decodeLeaf, encodeLeaf, type LeafRecord, type LeafSource } from './leaf.js';
import type { LogKey } from './log-key.js';
import { consistencyProof, hashLeaf, inclusionProof, MemoryTree } from './merkle.js';
import { entryBundle, hashTile, TILE_WIDTH, type TileRef, tileExists } from './tiles.js';
import { formatTlogProof } from './tlog-proof.js';
import { outsideRequest } from '../trace.js';

export interface Receipt {
  readonly id: string;
  readonly index: number;
  readonly leaf: LeafRecord;
  readonly leafBytes: Buffer;
  readonly treeSize: number;
  readonly rootHash: Buffer;
  readonly inclusionProof: readonly Buffer[];
  readonly checkpoint: string;
  /** C2SP tlog-proof@v1 text, the leaf record in its `extra` line. */
  readonly tlogProof: string;
}

export interface LogEntryInput {
  readonly digest: string;
  readonly length: number;
  readonly source: LeafSource;
  readonly accountId: string;
}

/** Leaves per sequencer transaction at most; the rest wait for the next. */
const MAX_BATCH = 1000;
/** Leaves read per query while catching up. */
const SYNC_PAGE = 5000;
/** Account tags kept (an HMAC each); the map starts afresh when full. */
const TAG_CACHE = 10_000;

/** Where the sequencer put a leaf: its index, and the checkpoint of its batch when the batch added it. */
interface Placed {
  readonly index: number;
  readonly checkpoint: StoredCheckpoint | undefined;
}

interface Pending {
  readonly leaf: NewLeaf;
  readonly resolve: (placed: Placed) => void;
  readonly reject: (err: unknown) => void;
}

export class TransparencyLog {
  readonly #tree = new MemoryTree();
  readonly #pending: Pending[] = [];
  readonly #tags = new Map<string, string>();
  #flushing = false;
  #syncing: Promise<void> | undefined;
  #publishing: Promise<StoredCheckpoint> | undefined;
  #latest: StoredCheckpoint | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly store: LogStore,
    readonly key: LogKey,
    private readonly now: () => number = Date.now,
  ) {}

  get origin(): string {
    return this.key.origin;
  }

  /** Signs a checkpoint every `intervalMs` while the log grew; `onError` hears failures (logged, never thrown). */
  startCheckpoints(intervalMs: number, onError: (err: unknown) => void): void {
    if (intervalMs <= 0 || this.#timer) return;
    this.#timer = setInterval(() => this.publish().catch(onError), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  accountTag(accountId: string): string {
    let tag = this.#tags.get(accountId);
    if (tag === undefined) {
      if (this.#tags.size >= TAG_CACHE) this.#tags.clear();
      this.#tags.set(accountId, (tag = accountTag(this.key.accountKey, accountId)));
    }
    return tag;
  }

  /**
   * Logs one digest: resolves with its receipt once the leaf is committed with a checkpoint that
   * covers it. With `idempotencyKey` (an async job's), a key already logged adds no leaf: the
   * receipt is the first leaf's.
   */
  async log(entry: LogEntryInput, idempotencyKey?: string): Promise<Receipt> {
    const leaf: LeafRecord = {
      digest: entry.digest,
      length: entry.length,
      source: entry.source,
      account: this.accountTag(entry.accountId),
      timeMs: this.now(),
    };
    const bytes = encodeLeaf(leaf);
    const placed = await this.#enqueue({ leaf: bytes, leafHash: hashLeaf(bytes), key: idempotencyKey });
    // Its batch's checkpoint covers a leaf it added: the receipt needs nothing more from the store.
    if (placed.checkpoint) return this.#receipt(placed.index, bytes, leaf, placed.checkpoint);
    return this.receipt(placed.index);
  }

  /** Appends a leaf through the shared sequencer; resolves its index once committed. */
  async append(leaf: Buffer): Promise<number> {
    return (await this.#enqueue({ leaf, leafHash: hashLeaf(leaf) })).index;
  }

  /**
   * Group commit: leaves that arrive while a batch is being written wait for the next one, so
   * concurrent requests share one transaction and one signed checkpoint.
   */
  #enqueue(leaf: NewLeaf): Promise<Placed> {
    return new Promise<Placed>((resolve, reject) => {
      this.#pending.push({ leaf, resolve, reject });
      if (this.#flushing) return;
      this.#flushing = true;
      // The first write waits for the end of this event-loop turn, so every request parsed in the
      // turn joins it: SQLite's driver is synchronous, and a flush started at once would commit
      // each request's leaf alone.
      // It runs as background work: a batch is many requests' (and may wait for another node's
      // lock), so it must not spend the PG_REQUEST_TIMEOUT_MS of the request that started it.
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
          if (tail) for (let i = this.#tree.size - tail.from; i < tail.hashes.length; i++) this.#tree.appendLeafHash(tail.hashes[i]!);
          if (outcome.checkpoint) this.#newest(outcome.checkpoint);
          const end = outcome.first + outcome.added;
          batch.forEach((p, i) => {
            const index = outcome.indices[i]!;
            p.resolve({ index, checkpoint: index >= outcome.first && index < end ? outcome.checkpoint : undefined });
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
    const from = this.#tree.size;
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
    const root = this.#tree.rootWith(hashes.slice(this.#tree.size - from));
    const note = signCheckpoint({ origin: this.origin, size, root }, this.origin, this.key.privateKey);
    return { checkpoint: { size, root, note }, tail: { from, hashes } };
  }

  /** Brings the in-memory tree up to every committed leaf (one catch-up at a time). */
  sync(): Promise<void> {
    this.#syncing ??= this.#catchUp().finally(() => {
      this.#syncing = undefined;
    });
    return this.#syncing;
  }

  async #catchUp(): Promise<void> {
    for (;;) {
      const rows = await this.store.leavesFrom(this.#tree.size, SYNC_PAGE);
      for (const row of rows) {
        // The sequencer may have added this node's own batch while the rows were read.
        if (row.index < this.#tree.size && this.#tree.read(0, row.index).equals(row.leafHash)) continue;
        // Rows arrive in index order from the current size; anything else means a broken store.
        if (row.index !== this.#tree.size || !hashLeaf(row.leaf).equals(row.leafHash)) {
          throw new Error(`transparency log: leaf ${row.index} does not follow the tree of ${this.#tree.size}`);
        }
        this.#tree.appendLeafHash(row.leafHash);
      }
      if (rows.length < SYNC_PAGE) return;
    }
  }

  /** The tree has at least `size` leaves locally (syncing if needed). */
  async #ensure(size: number): Promise<void> {
    if (this.#tree.size < size) await this.sync();
    if (this.#tree.size < size) throw new RangeError(`the log has ${this.#tree.size} leaves, not ${size}`);
  }

  get size(): number {
    return this.#tree.size;
  }

  /** The signed checkpoint of the tree at `size` (deterministic). */
  async checkpointAt(size: number): Promise<{ note: string; root: Buffer }> {
    await this.#ensure(size);
    const root = this.#tree.root(size);
    return { note: signCheckpoint({ origin: this.origin, size, root }, this.origin, this.key.privateKey), root };
  }

  /** Publishes a checkpoint of the whole tree if it grew; resolves the latest published (sharing one run). */
  publish(): Promise<StoredCheckpoint> {
    this.#publishing ??= this.#publish().finally(() => {
      this.#publishing = undefined;
    });
    return this.#publishing;
  }

  async #publish(): Promise<StoredCheckpoint> {
    await this.sync();
    const latest = await this.store.latestCheckpoint();
    if (latest && latest.size >= this.#tree.size) return this.#checked(latest);
    const size = this.#tree.size;
    const { note, root } = await this.checkpointAt(size);
    return this.#checked(await this.store.publishCheckpoint({ size, root, note }));
  }

  /** A stored checkpoint must match this node's own root at its size: the log never forks. */
  async #checked(cp: StoredCheckpoint): Promise<StoredCheckpoint> {
    await this.#ensure(cp.size);
    const expected = checkpointText({ origin: this.origin, size: cp.size, root: this.#tree.root(cp.size) });
    if (!cp.note.startsWith(expected))
      throw new Error(`transparency log: the published checkpoint of ${cp.size} differs from this node's tree`);
    return this.#newest(cp);
  }

  /**
   * The larger of `cp` and the newest checkpoint this node has seen or signed: reads that finish
   * out of order (one waited for a sync) never answer an older checkpoint after a newer one.
   */
  #newest(cp: StoredCheckpoint): StoredCheckpoint {
    if (this.#latest && this.#latest.size >= cp.size) return this.#latest;
    this.#latest = cp;
    return cp;
  }

  /** The latest published checkpoint (publishing the first one when there is none). */
  async latest(): Promise<StoredCheckpoint> {
    const cp = await this.store.latestCheckpoint();
    return cp ? this.#checked(cp) : this.publish();
  }

  /** The receipt of leaf `index` against the latest published checkpoint, publishing one if needed. */
  async receipt(index: number): Promise<Receipt> {
    let cp = await this.latest();
    while (cp.size <= index) cp = await this.publish();
    const rows = await this.store.leavesFrom(index, 1);
    const row = rows[0];
    if (!row || row.index !== index) throw new RangeError(`no leaf ${index}`);
    return this.#receipt(index, row.leaf, decodeLeaf(row.leaf), cp);
  }

  /** A receipt from the tree in memory, which holds at least `cp.size` leaves. */
  #receipt(index: number, leafBytes: Buffer, leaf: LeafRecord, cp: StoredCheckpoint): Receipt {
    const proof = inclusionProof(this.#tree.read, index, cp.size);
    return {
      id: String(index),
      index,
      leaf,
      leafBytes,
      treeSize: cp.size,
      rootHash: cp.root,
      inclusionProof: proof,
      checkpoint: cp.note,
      tlogProof: formatTlogProof({ extra: leafBytes, index, hashes: proof, checkpoint: cp.note }),
    };
  }

  /** The leaf at `index`, or undefined past the end. */
  async leaf(index: number): Promise<LeafRecord | undefined> {
    const row = (await this.store.leavesFrom(index, 1))[0];
    return row?.index === index ? decodeLeaf(row.leaf) : undefined;
  }

  /** The consistency proof between two sizes, both within the latest published checkpoint. */
  async consistency(from: number, to: number): Promise<Buffer[]> {
    await this.#ensure(to);
    return consistencyProof(this.#tree.read, from, to);
  }

  /** A tile's bytes, or undefined when the tree (synced now) does not have it. */
  async tile(ref: TileRef): Promise<Buffer | undefined> {
    if (!tileExists(ref, this.#tree.size)) await this.sync();
    if (!tileExists(ref, this.#tree.size)) return undefined;
    if (ref.level !== 'entries') return hashTile(this.#tree.read, ref.level, ref.index, ref.width);
    const rows = await this.store.leavesFrom(ref.index * TILE_WIDTH, ref.width);
    return entryBundle(rows.map((r) => r.leaf));
  }
}
