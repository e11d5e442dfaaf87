/**
 * Merkle core (shared/proof/merkle.ts): the RFC 6962 known answers used by certificate-transparency-go
 * and transparency-dev/merkle (8 leaves: roots, inclusion and consistency proofs), a cross-check against
 * a naive implementation of the RFC 9162 §2.1 definitions written here, every index and size pair of
 * trees up to 300 leaves, and tampered proofs.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  consistencyProof,
  EMPTY_ROOT,
  hashLeaf,
  inclusionProof,
  rangeHash,
  MemoryTree,
  verifyConsistency,
  verifyInclusion,
} from '../../shared/proof/merkle.js';

const hex = (h: string): Buffer => Buffer.from(h, 'hex');
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(hex);
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
// [leaf index (0-based), tree size, proof]
const INCLUSION: [number, number, string[]][] = [
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
  [0, 1, []],
];
// [old size, new size, proof]
const CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];

function treeOf(leaves: readonly Buffer[]): MemoryTree {
  const tree = new MemoryTree();
  for (const leaf of leaves) tree.appendLeafHash(hashLeaf(leaf));
  return tree;
}

const toHex = (proof: readonly Buffer[]): string[] => proof.map((p) => p.toString('hex'));

/** The RFC 9162 §2.1 definitions, recursively over the leaf list, memoised by range (the leaves are one sequence). */
class Naive {
  private readonly memo = new Map<string, Buffer>();
  constructor(private readonly leaves: readonly Buffer[]) {}
  private h(...parts: Uint8Array[]): Buffer {
    const sha = createHash('sha256');
    for (const p of parts) sha.update(p);
    return sha.digest();
  }
  private k(n: number): number {
    let k = 1;
    while (k << 1 < n) k <<= 1;
    return k;
  }
  mth(start: number, end: number): Buffer {
    const key = `${start}:${end}`;
    const hit = this.memo.get(key);
    if (hit) return hit;
    const n = end - start;
    let out: Buffer;
    if (n === 0) out = this.h();
    else if (n === 1) out = this.h(Buffer.from([0]), this.leaves[start] as Buffer);
    else {
      const k = this.k(n);
      out = this.h(Buffer.from([1]), this.mth(start, start + k), this.mth(start + k, end));
    }
    this.memo.set(key, out);
    return out;
  }
  path(m: number, start: number, end: number): Buffer[] {
    const n = end - start;
    if (n === 1) return [];
    const k = this.k(n);
    return m < k
      ? [...this.path(m, start, start + k), this.mth(start + k, end)]
      : [...this.path(m - k, start + k, end), this.mth(start, start + k)];
  }
  subproof(m: number, start: number, end: number, b: boolean): Buffer[] {
    const n = end - start;
    if (m === n) return b ? [] : [this.mth(start, end)];
    const k = this.k(n);
    return m <= k
      ? [...this.subproof(m, start, start + k, b), this.mth(start + k, end)]
      : [...this.subproof(m - k, start + k, end, false), this.mth(start, start + k)];
  }
}

function flipped(proof: readonly Buffer[], element: number, byte: number): Buffer[] {
  return proof.map((p, i) => {
    if (i !== element) return p;
    const copy = Buffer.from(p);
    copy[byte] = (copy[byte] ?? 0) ^ 0x01;
    return copy;
  });
}

describe('RFC 6962 known answers (8 leaves)', () => {
  const tree = treeOf(LEAVES);

  it('roots for sizes 0..8', () => {
    expect(tree.root(0).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let size = 1; size <= 8; size++) expect(tree.root(size).toString('hex')).toBe(ROOTS[size - 1]);
  });

  it.each(INCLUSION)('inclusion of leaf %i in %i', (index, size, expected) => {
    const proof = inclusionProof(tree.read, index, size);
    expect(toHex(proof)).toEqual(expected);
    const root = hex(ROOTS[size - 1] as string);
    const leafHash = hashLeaf(LEAVES[index] as Buffer);
    expect(verifyInclusion(leafHash, index, size, proof, root)).toBe(true);
    expect(verifyInclusion(leafHash, index + 1, size, proof, root)).toBe(false);
    expect(verifyInclusion(leafHash, index, size * 2, proof, root)).toBe(false);
    expect(verifyInclusion(hashLeaf(Buffer.from('WrongLeaf')), index, size, proof, root)).toBe(false);
    expect(verifyInclusion(leafHash, index, size, [...proof, root], root)).toBe(false);
    expect(verifyInclusion(leafHash, index, size, [root, ...proof], root)).toBe(false);
    if (proof.length > 0) expect(verifyInclusion(leafHash, index, size, proof.slice(0, -1), root)).toBe(false);
    for (let e = 0; e < proof.length; e++) {
      for (let b = 0; b < 32; b++) expect(verifyInclusion(leafHash, index, size, flipped(proof, e, b), root)).toBe(false);
    }
  });

  it.each(INCLUSION)('inclusion of leaf %i in %i with the edge hashes of its size shared', (index, size, expected) => {
    // Every proof of this size first, so the one checked reads what the others left in the map.
    const edges = new Map<number, Buffer>();
    for (let i = 0; i < size; i++) inclusionProof(tree.read, i, size, edges);
    expect(toHex(inclusionProof(tree.read, index, size, edges))).toEqual(expected);
    for (const [start, hash] of edges) expect(hash.equals(rangeHash(tree.read, start, size))).toBe(true);
  });

  it.each(CONSISTENCY)('consistency from %i to %i', (oldSize, newSize, expected) => {
    const proof = consistencyProof(tree.read, oldSize, newSize);
    expect(toHex(proof)).toEqual(expected);
    const oldRoot = hex(ROOTS[oldSize - 1] as string);
    const newRoot = hex(ROOTS[newSize - 1] as string);
    expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, proof)).toBe(true);
    if (oldSize === newSize) return;
    expect(verifyConsistency(oldSize, newSize, newRoot, oldRoot, proof)).toBe(false);
    expect(verifyConsistency(oldSize - 1, newSize, oldRoot, newRoot, proof)).toBe(false);
    expect(verifyConsistency(oldSize + 1, newSize, oldRoot, newRoot, proof)).toBe(false);
    expect(verifyConsistency(oldSize, newSize * 2, oldRoot, newRoot, proof)).toBe(false);
    expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, [])).toBe(false);
    expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, [...proof, newRoot])).toBe(false);
    expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, proof.slice(0, -1))).toBe(false);
    for (let e = 0; e < proof.length; e++) {
      for (let b = 0; b < 32; b++) expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, flipped(proof, e, b))).toBe(false);
    }
  });

  it('edge cases: empty trees, sizes going backwards, indices outside the tree', () => {
    expect(verifyConsistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])).toBe(true);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, hex(ROOTS[4] as string), [])).toBe(true);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, hex(ROOTS[4] as string), [EMPTY_ROOT])).toBe(false);
    expect(verifyConsistency(2, 1, hex(ROOTS[1] as string), hex(ROOTS[0] as string), [])).toBe(false);
    expect(verifyInclusion(hashLeaf(Buffer.alloc(0)), 0, 0, [], EMPTY_ROOT)).toBe(false);
    expect(() => inclusionProof(tree.read, 8, 8)).toThrow(RangeError);
    expect(() => inclusionProof(tree.read, -1, 8)).toThrow(RangeError);
    expect(() => consistencyProof(tree.read, 5, 4)).toThrow(RangeError);
  });
});

describe('every index and size pair up to 300 leaves, against the naive definitions', () => {
  const MAX = 300;
  const leaves = Array.from({ length: MAX }, (_, i) =>
    createHash('sha256')
      .update(`leaf ${i}`)
      .digest()
      .subarray(0, i % 40),
  );
  const tree = treeOf(leaves);
  const naive = new Naive(leaves);

  it('roots', () => {
    for (let n = 0; n <= MAX; n++) expect(tree.root(n).equals(naive.mth(0, n))).toBe(true);
  });

  it('rootWith: the root after appending, for every split of up to 70 leaves, leaving the tree unchanged', () => {
    const hashes = leaves.map((l) => hashLeaf(l));
    for (let base = 0; base <= 70; base++) {
      const partial = treeOf(leaves.slice(0, base));
      for (let extra = 0; base + extra <= 70; extra++) {
        expect(partial.rootWith(hashes.slice(base, base + extra)).equals(naive.mth(0, base + extra))).toBe(true);
      }
      expect(partial.size).toBe(base);
      expect(partial.root().equals(naive.mth(0, base))).toBe(true);
    }
  });

  it('extension: committed, the tree holds every node appending leaf by leaf makes; refused once the tree grew', () => {
    const hashes = leaves.map((l) => hashLeaf(l));
    for (let base = 0; base <= 40; base++) {
      for (let extra = 0; base + extra <= 40; extra++) {
        const grown = treeOf(leaves.slice(0, base));
        const extension = grown.extension(hashes.slice(base, base + extra));
        expect(extension.commit()).toBe(true);
        expect(grown.size).toBe(base + extra);
        const expected = treeOf(leaves.slice(0, base + extra));
        for (let level = 0; 2 ** level <= base + extra; level++) {
          for (let i = 0; (i + 1) * 2 ** level <= base + extra; i++) {
            expect(grown.read(level, i).equals(expected.read(level, i))).toBe(true);
          }
        }
        expect(extension.root.equals(naive.mth(0, base + extra))).toBe(true);
      }
    }
    const stale = treeOf(leaves.slice(0, 5));
    const extension = stale.extension(hashes.slice(5, 9));
    stale.appendLeafHash(hashes[5]!);
    expect(extension.commit()).toBe(false);
    expect(stale.size).toBe(6);
    expect(stale.root().equals(naive.mth(0, 6))).toBe(true);
  });

  // ~45,000 index/size pairs and ~100,000 flipped proofs: each disagreement is recorded by name and
  // asserted once, since an expect() per check made the assertions most of the file's time.
  it('inclusion proofs for every index of every size, each verifying and a flipped byte refused', () => {
    const wrong: string[] = [];
    for (let n = 1; n <= MAX; n++) {
      const root = naive.mth(0, n);
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(tree.read, m, n);
        const expected = naive.path(m, 0, n);
        if (proof.length !== expected.length || proof.some((p, i) => !p.equals(expected[i] as Buffer))) wrong.push(`path ${m}/${n}`);
        const leafHash = hashLeaf(leaves[m] as Buffer);
        if (!verifyInclusion(leafHash, m, n, proof, root)) wrong.push(`refused ${m}/${n}`);
        if (proof.length > 0) {
          const e = (m * 7 + n) % proof.length;
          if (verifyInclusion(leafHash, m, n, flipped(proof, e, (m + n) % 32), root)) wrong.push(`flipped ${m}/${n} at ${e}`);
        }
        if (n <= 24) {
          for (let e = 0; e < proof.length; e++) {
            for (let b = 0; b < 32; b++)
              if (verifyInclusion(leafHash, m, n, flipped(proof, e, b), root)) wrong.push(`flipped ${m}/${n} at ${e}:${b}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('consistency proofs for every pair of sizes, each verifying and a flipped byte refused', () => {
    const wrong: string[] = [];
    for (let n = 1; n <= MAX; n++) {
      const newRoot = naive.mth(0, n);
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(tree.read, m, n);
        const expected = m === n ? [] : naive.subproof(m, 0, n, true);
        if (proof.length !== expected.length || proof.some((p, i) => !p.equals(expected[i] as Buffer))) wrong.push(`proof ${m}→${n}`);
        const oldRoot = naive.mth(0, m);
        if (!verifyConsistency(m, n, oldRoot, newRoot, proof)) wrong.push(`refused ${m}→${n}`);
        if (proof.length > 0) {
          const e = (m * 5 + n) % proof.length;
          if (verifyConsistency(m, n, oldRoot, newRoot, flipped(proof, e, (m * 3 + n) % 32))) wrong.push(`flipped ${m}→${n} at ${e}`);
        }
        if (n <= 24) {
          for (let e = 0; e < proof.length; e++) {
            for (let b = 0; b < 32; b++) {
              if (verifyConsistency(m, n, oldRoot, newRoot, flipped(proof, e, b))) wrong.push(`flipped ${m}→${n} at ${e}:${b}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
