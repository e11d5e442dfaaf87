/**
 * The transparency log as one API node sees it: appends go to the shared store through the
 * node's group commit (shared/proof/sequencer.ts), whose batches carry the checkpoint their
 * receipts are built from; the node mirrors the committed leaf hashes in memory (MemoryTree,
 * synced in index order) and answers roots, proofs and tiles from it. Checkpoints are also signed
 * on a timer and on demand. Ed25519 is deterministic, so the checkpoint for a size is the same bytes
 * whoever signs it; the published one only grows (the store refuses a smaller one).
 */
import type { LogStore, StoredCheckpoint } from '../store/log-store.js';
import { checkpointText, signCheckpoint } from './checkpoint.js';
import { accountTag, decodeLeaf, type LeafRecord, type LeafSource, leafText } from './leaf.js';
import type { LogKey } from './log-key.js';
import { consistencyProof, type EdgeHashes, hashLeaf, inclusionProof, MemoryTree, type NodeReader } from './merkle.js';
import { entryBundle, hashTile, TILE_WIDTH, type TileRef, tileExists } from './tiles.js';
import { tlogProofHead, tlogProofText } from './tlog-proof.js';
import { type QueuedLeaf, Sequencer } from './sequencer.js';

export interface Receipt {
  readonly id: string;
  readonly index: number;
  readonly leaf: LeafRecord;
  readonly leafBytes: Buffer;
  readonly leafBase64: string;
  readonly treeSize: number;
  readonly rootHash: Buffer;
  readonly rootHashBase64: string;
  readonly inclusionProof: readonly Buffer[];
  /** The same hashes in base64, as every rendering of a receipt writes them. */
  readonly inclusionProofBase64: readonly string[];
  readonly checkpoint: string;
  /** C2SP tlog-proof@v1 text, the leaf record in its `extra` line: `tlogProofHead`, a blank line, `checkpoint`. */
  readonly tlogProof: string;
  readonly tlogProofHead: string;
}

/** A receipt as an answer carries it: with the log's verifier key, which renders beside it (docs/proving.md). */
export interface LoggedReceipt {
  readonly receipt: Receipt;
  readonly logKey: string;
}

export interface LogEntryInput {
  readonly digest: string;
  readonly length: number;
  readonly source: LeafSource;
  readonly accountId: string;
}

/**
 * Who hears a logged digest's receipt (TransparencyLog.logTo): exactly one of the two is called,
 * once. `receipt` must not throw (its errors are its own to answer).
 */
export interface ReceiptWaiter {
  receipt(receipt: Receipt, logKey: string): void;
  failed(err: unknown): void;
}

/**
 * What the receipts against one checkpoint size share: the hashes of the ranges ending at that size,
 * the tree's nodes as read for them, and the base64 of every proof hash written (a batch's receipts
 * are all against its checkpoint, and their proofs mostly name the same nodes).
 */
interface SharedProofParts {
  readonly size: number;
  readonly rootBase64: string;
  readonly read: NodeReader;
  readonly edges: EdgeHashes;
  readonly base64: Map<Buffer, string>;
}

/** Leaves read per query while catching up. */
const SYNC_PAGE = 5000;
/** Account tags kept (an HMAC each); the map starts afresh when full. */
const TAG_CACHE = 10_000;

export class TransparencyLog {
  readonly #tree = new MemoryTree();
  readonly #sequencer: Sequencer;
  readonly #tags = new Map<string, string>();
  #syncing: Promise<void> | undefined;
  #publishing: Promise<StoredCheckpoint> | undefined;
  #latest: StoredCheckpoint | undefined;
  #timer: NodeJS.Timeout | undefined;
  #shared: SharedProofParts | undefined;

  constructor(
    readonly store: LogStore,
    readonly key: LogKey,
    private readonly now: () => number = Date.now,
  ) {
    this.#sequencer = new Sequencer(store, this.#tree, {
      sign: (size, root) => signCheckpoint({ origin: this.origin, size, root }, this.origin, this.key.privateKey),
      committed: (cp) => this.#newest(cp),
    });
  }

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
  log(entry: LogEntryInput, idempotencyKey?: string): Promise<Receipt> {
    return new Promise((resolve, reject) => this.logTo(entry, { receipt: resolve, failed: reject }, idempotencyKey));
  }

  /**
   * `log` with the receipt handed to `waiter`: a request waiting for its batch then holds one
   * object in the log, no promise (docs/decisions.md "Proof of existence").
   */
  logTo(entry: LogEntryInput, waiter: ReceiptWaiter, idempotencyKey?: string): void {
    const leaf: LeafRecord = {
      digest: entry.digest,
      length: entry.length,
      source: entry.source,
      account: this.accountTag(entry.accountId),
      timeMs: this.now(),
    };
    const text = leafText(leaf);
    this.#sequencer.enqueue(new WaitingLeaf(text, Buffer.from(text, 'utf8'), leaf, idempotencyKey, waiter, this.#placed));
  }

  /** Where a WaitingLeaf went: its receipt, from the tree when its batch's checkpoint covers it, else read back. */
  readonly #placed = (waiting: WaitingLeaf, index: number, checkpoint: StoredCheckpoint | undefined): void => {
    const logKey = this.key.verifierKey;
    if (checkpoint) {
      waiting.waiter.receipt(this.#receipt(index, waiting.leaf, waiting.record, checkpoint), logKey);
      return;
    }
    this.receipt(index)
      .then(
        (receipt) => waiting.waiter.receipt(receipt, logKey),
        (err: unknown) => waiting.waiter.failed(err),
      )
      // A waiter that throws even so is left to its request's deadline, as in the sequencer.
      .catch(() => undefined);
  };

  /** Appends a leaf through the shared sequencer; resolves its index once committed. */
  append(leaf: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#sequencer.enqueue({ leaf, leafHash: hashLeaf(leaf), placed: (index) => resolve(index), failed: reject });
    });
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
    const shared = this.#sharedAt(cp.size, cp.root);
    const proof = inclusionProof(shared.read, index, cp.size, shared.edges);
    const proofBase64: string[] = [];
    for (const hash of proof) {
      let text = shared.base64.get(hash);
      if (text === undefined) shared.base64.set(hash, (text = hash.toString('base64')));
      proofBase64.push(text);
    }
    return new TreeReceipt(index, leaf, leafBytes, cp, shared.rootBase64, proof, proofBase64);
  }

  #sharedAt(size: number, root: Buffer): SharedProofParts {
    if (this.#shared?.size !== size) {
      // The tree answers a new view per read: the same node read again is the same Buffer here, so
      // `base64` finds it.
      const nodes = new Map<number, Buffer>();
      const read: NodeReader = (level, index) => {
        const key = index * 64 + level;
        let hash = nodes.get(key);
        if (hash === undefined) nodes.set(key, (hash = this.#tree.read(level, index)));
        return hash;
      };
      this.#shared = { size, rootBase64: root.toString('base64'), read, edges: new Map(), base64: new Map() };
    }
    return this.#shared;
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

/**
 * A leaf waiting for its batch (shared/proof/sequencer.ts QueuedLeaf): its bytes, hash and record,
 * and who hears its receipt, in one object.
 */
class WaitingLeaf implements QueuedLeaf {
  readonly leafHash: Buffer;

  constructor(
    readonly text: string,
    readonly leaf: Buffer,
    readonly record: LeafRecord,
    readonly key: string | undefined,
    readonly waiter: ReceiptWaiter,
    private readonly onPlaced: (waiting: WaitingLeaf, index: number, checkpoint: StoredCheckpoint | undefined) => void,
  ) {
    this.leafHash = hashLeaf(leaf);
  }

  placed(index: number, checkpoint: StoredCheckpoint | undefined): void {
    this.onPlaced(this, index, checkpoint);
  }

  failed(err: unknown): void {
    this.waiter.failed(err);
  }
}

/**
 * A receipt as the tree answers it. The tlog-proof text is made when read: a /v2/hash answer writes
 * it from these parts instead (api/http/receipt-body.ts), and would only throw the strings away.
 */
class TreeReceipt implements Receipt {
  readonly id: string;
  readonly leafBase64: string;
  readonly treeSize: number;
  readonly rootHash: Buffer;
  readonly checkpoint: string;
  #head: string | undefined;

  constructor(
    readonly index: number,
    readonly leaf: LeafRecord,
    readonly leafBytes: Buffer,
    cp: StoredCheckpoint,
    readonly rootHashBase64: string,
    readonly inclusionProof: readonly Buffer[],
    readonly inclusionProofBase64: readonly string[],
  ) {
    this.id = String(index);
    this.leafBase64 = leafBytes.toString('base64');
    this.treeSize = cp.size;
    this.rootHash = cp.root;
    this.checkpoint = cp.note;
  }

  get tlogProofHead(): string {
    return (this.#head ??= tlogProofHead(
      { extra: this.leafBytes, index: this.index, hashes: this.inclusionProof },
      { extra: this.leafBase64, hashes: this.inclusionProofBase64 },
    ));
  }

  get tlogProof(): string {
    return tlogProofText(this.tlogProofHead, this.checkpoint);
  }
}
