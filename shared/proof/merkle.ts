/**
 * RFC 9162 §2.1 Merkle tree hashing over SHA-256, with inclusion and consistency proofs (generation
 * and verification). Generation reads only complete, aligned subtree hashes through a `NodeReader`
 * (what a tiled log stores, C2SP tlog-tiles), so a proof costs O(log n) reads whatever the size.
 * Verification follows RFC 9162 §2.1.3.2 and §2.1.4.2 step by step: it is what an offline client runs,
 * so it never trusts lengths or sizes it was given.
 */
import crypto, { createHash } from 'node:crypto';

export const HASH_SIZE = 32;

/**
 * SHA-256 in one call (node:crypto `hash`, Node ≥ 20.12) where the runtime has it, else through a
 * Hash object: a tree hashes many 33- and 65-byte inputs, and the one-shot call skips the object
 * and its three updates (docs/decisions.md "Proof of existence").
 */
const sha256Of: (input: Buffer) => Buffer =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (input) => crypto.hash('sha256', input, 'buffer')
    : (input) => createHash('sha256').update(input).digest();

/** SHA-256(0x00 ‖ leaf). */
export function hashLeaf(leaf: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + leaf.length);
  input[0] = 0x00;
  input.set(leaf, 1);
  return sha256Of(input);
}

/** SHA-256(0x01 ‖ left ‖ right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256Of(input);
}

/** MTH of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Buffer = createHash('sha256').digest();

/**
 * The hash of the complete subtree at `level` (0 = leaves) and `index` within that level, covering
 * leaves [index·2^level, (index+1)·2^level). Only asked for subtrees that lie inside the tree.
 */
export type NodeReader = (level: number, index: number) => Buffer;

/** Largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** Whether n is a power of two (n ≥ 1). */
function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/** MTH(D[start:end]) from complete-subtree reads: the range is aligned complete, or split per RFC 9162. */
export function rangeHash(read: NodeReader, start: number, end: number): Buffer {
  const n = end - start;
  if (n <= 0) return EMPTY_ROOT;
  if (isPowerOfTwo(n) && start % n === 0) return read(Math.log2(n), start / n);
  const k = splitPoint(n);
  return hashChildren(rangeHash(read, start, start + k), rangeHash(read, start + k, end));
}

/** The root of a tree of `size` leaves. */
export function rootHash(read: NodeReader, size: number): Buffer {
  return rangeHash(read, 0, size);
}

/**
 * Hashes of the ranges [start, size) of one tree size, by start: every range a proof hashes rather
 * than reads ends at the tree's size (the left siblings are complete subtrees), so the receipts of
 * one checkpoint share them (docs/decisions.md "Proof of existence").
 */
export type EdgeHashes = Map<number, Buffer>;

/** RFC 9162 §2.1.3.1 PATH(m, D[start:end]). */
function path(read: NodeReader, m: number, start: number, end: number, out: Buffer[], edges: EdgeHashes | undefined): void {
  const n = end - start;
  if (n <= 1) return;
  const k = splitPoint(n);
  if (m < k) {
    path(read, m, start, start + k, out, edges);
    out.push(edgeHash(read, start + k, end, edges));
  } else {
    path(read, m - k, start + k, end, out, edges);
    out.push(rangeHash(read, start, start + k));
  }
}

/** rangeHash of [start, end), taken from or kept in `edges` when it is one (not a complete subtree). */
function edgeHash(read: NodeReader, start: number, end: number, edges: EdgeHashes | undefined): Buffer {
  const n = end - start;
  if (edges === undefined || (isPowerOfTwo(n) && start % n === 0)) return rangeHash(read, start, end);
  let hash = edges.get(start);
  if (hash === undefined) edges.set(start, (hash = rangeHash(read, start, end)));
  return hash;
}

/**
 * The inclusion proof of leaf `index` in the tree of `size` leaves (0 ≤ index < size). `edges`, kept
 * by the caller for this `size` alone, spares the next proofs of the same size their hashing.
 */
export function inclusionProof(read: NodeReader, index: number, size: number, edges?: EdgeHashes): Buffer[] {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) {
    throw new RangeError(`no leaf ${index} in a tree of ${size}`);
  }
  const out: Buffer[] = [];
  path(read, index, 0, size, out, edges);
  return out;
}

/** RFC 9162 §2.1.4.1 SUBPROOF(m, D[start:end], b). */
function subproof(read: NodeReader, m: number, start: number, end: number, whole: boolean, out: Buffer[]): void {
  const n = end - start;
  if (m === n) {
    if (!whole) out.push(rangeHash(read, start, end));
    return;
  }
  const k = splitPoint(n);
  if (m <= k) {
    subproof(read, m, start, start + k, whole, out);
    out.push(rangeHash(read, start + k, end));
  } else {
    subproof(read, m - k, start + k, end, false, out);
    out.push(rangeHash(read, start, start + k));
  }
}

/** The consistency proof from the tree of `oldSize` to the tree of `newSize` leaves (0 ≤ old ≤ new). */
export function consistencyProof(read: NodeReader, oldSize: number, newSize: number): Buffer[] {
  if (!Number.isSafeInteger(oldSize) || !Number.isSafeInteger(newSize) || oldSize < 0 || oldSize > newSize) {
    throw new RangeError(`no consistency proof from ${oldSize} to ${newSize}`);
  }
  const out: Buffer[] = [];
  if (oldSize === 0 || oldSize === newSize) return out;
  subproof(read, oldSize, 0, newSize, true, out);
  return out;
}

function equalHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === HASH_SIZE && b.length === HASH_SIZE && Buffer.compare(a, b) === 0;
}

function validSizes(...values: number[]): boolean {
  return values.every((v) => Number.isSafeInteger(v) && v >= 0);
}

/** RFC 9162 §2.1.3.2: whether `proof` proves `leafHash` at `index` in the tree of `size` with `root`. */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!validSizes(index, size) || index >= size || leafHash.length !== HASH_SIZE) return false;
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leafHash;
  for (const p of proof) {
    if (p.length !== HASH_SIZE || sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = hashChildren(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalHash(r, root);
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree (oldSize, oldRoot) is a prefix of (newSize, newRoot). */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!validSizes(oldSize, newSize) || oldSize > newSize) return false;
  if (oldSize === newSize) return proof.length === 0 && equalHash(oldRoot, newRoot);
  if (oldSize === 0) return proof.length === 0 && newRoot.length === HASH_SIZE;
  if (proof.length === 0 || proof.some((p) => p.length !== HASH_SIZE)) return false;
  // Step 1: if first_size is an exact power of 2, prepend first_hash to the proof.
  const path: Uint8Array[] = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  // Step 3: if LSB(fn) is set, right-shift both until it is not.
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  const [first, ...rest] = path;
  if (!first) return false;
  let fr: Uint8Array = first;
  let sr: Uint8Array = first;
  for (const c of rest) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && equalHash(fr, oldRoot) && equalHash(sr, newRoot);
}

/** Hashes per chunk of a `HashColumn`: 128 KiB of memory each. */
const CHUNK_HASHES = 4096;

/**
 * One level of a `MemoryTree`: its hashes back to back in large buffers. A Buffer per hash is a
 * typed array, an ArrayBuffer and a backing store of its own per node, kept for the life of the
 * process and copied and promoted by the young-generation GC as the tree grows: about 950 bytes of
 * memory per leaf, against about 175 here (200,000 leaves, RSS). Reads answer views into the chunks.
 */
class HashColumn {
  readonly #chunks: Buffer[] = [];
  length = 0;

  push(hash: Uint8Array): void {
    const slot = this.length % CHUNK_HASHES;
    // allocUnsafeSlow: a chunk of its own, not a slice of the shared pool; every byte is written before it is read.
    if (slot === 0) this.#chunks.push(Buffer.allocUnsafeSlow(CHUNK_HASHES * HASH_SIZE));
    this.#chunks[this.#chunks.length - 1]!.set(hash, slot * HASH_SIZE);
    this.length++;
  }

  /** The hash at `index` (< length), as a view that stays valid: chunks are never written again. */
  at(index: number): Buffer {
    const chunk = this.#chunks[Math.floor(index / CHUNK_HASHES)]!;
    const offset = (index % CHUNK_HASHES) * HASH_SIZE;
    return chunk.subarray(offset, offset + HASH_SIZE);
  }
}

/**
 * Complete-subtree hashes kept in memory, level by level: level 0 holds the leaf hashes, and each
 * level above holds a hash for every complete pair below. Appending is O(log n) amortised.
 */
export class MemoryTree {
  readonly #levels: HashColumn[] = [new HashColumn()];

  get size(): number {
    return this.#levels[0]!.length;
  }

  /** Appends one leaf hash and every complete subtree it closes (the bytes are copied). */
  appendLeafHash(leafHash: Uint8Array): void {
    let hash = leafHash;
    for (let level = 0; ; level++) {
      const row = this.#levels[level] ?? (this.#levels[level] = new HashColumn());
      row.push(hash);
      if (row.length % 2 === 1) return;
      hash = hashChildren(row.at(row.length - 2), hash);
    }
  }

  readonly read: NodeReader = (level, index) => {
    const row = this.#levels[level];
    if (!row || !Number.isInteger(index) || index < 0 || index >= row.length) {
      throw new RangeError(`no complete subtree at level ${level}, index ${index}`);
    }
    return row.at(index);
  };

  /** How many complete subtrees `level` has. */
  #width(level: number): number {
    return this.#levels[level]?.length ?? 0;
  }

  root(size = this.size): Buffer {
    return rootHash(this.read, size);
  }

  /**
   * The root once `extra` leaf hashes are appended, leaving this tree as it is: a batch's
   * checkpoint is signed before its leaves commit, and the tree holds only committed leaves.
   */
  rootWith(extra: readonly Buffer[]): Buffer {
    return this.extension(extra).root;
  }

  /**
   * The tree with `extra` leaf hashes appended, leaving this one as it is: its root, and `commit`,
   * which appends them here with the inner hashes computed for the root (each hashed once per
   * batch, not again when the batch commits).
   */
  extension(extra: readonly Buffer[]): TreeExtension {
    const added: Buffer[][] = [];
    const read: NodeReader = (level, index) => {
      const base = this.#width(level);
      if (index < base) return this.read(level, index);
      const hash = added[level]?.[index - base];
      if (!hash) throw new RangeError(`no complete subtree at level ${level}, index ${index}`);
      return hash;
    };
    for (const leafHash of extra) {
      let hash = leafHash;
      for (let level = 0; ; level++) {
        const row = (added[level] ??= []);
        row.push(hash);
        const length = this.#width(level) + row.length;
        if (length % 2 === 1) break;
        hash = hashChildren(read(level, length - 2), hash);
      }
    }
    const from = this.size;
    return {
      root: rootHash(read, from + extra.length),
      commit: () => {
        if (this.size !== from) return false;
        added.forEach((hashes, level) => {
          const row = this.#levels[level] ?? (this.#levels[level] = new HashColumn());
          for (const hash of hashes) row.push(hash);
        });
        return true;
      },
    };
  }
}

/** A tree grown by some leaves without changing the one it grew from (MemoryTree.extension). */
export interface TreeExtension {
  readonly root: Buffer;
  /** Appends the leaves to the tree it grew from; false, changing nothing, when that tree grew since. */
  commit(): boolean;
}
