/**
 * Leaves, signed notes, checkpoints, tlog-proofs and tiles (shared/proof/): known encodings, round
 * trips, refusals, and a tile reader written here from the C2SP tlog-tiles text that rebuilds the
 * root of trees of many sizes from nothing but served tiles.
 */
import { createHash, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openCheckpoint, parseCheckpointText, signCheckpoint } from '../../shared/proof/checkpoint.js';
import { accountTag, decodeLeaf, encodeLeaf, type LeafRecord } from '../../shared/proof/leaf.js';
import { logKeyOf, parseSigningKey } from '../../shared/proof/log-key.js';
import { hashLeaf, MemoryTree } from '../../shared/proof/merkle.js';
import { keyId, openNote, parseVerifierKey, rawPublicKey, seedOf, signNote } from '../../shared/proof/note.js';
import { encodeTileIndex, entryBundle, hashTile, parseEntryBundle, parseTilePath, tileExists, tilePath } from '../../shared/proof/tiles.js';
import { formatTlogProof, parseTlogProof } from '../../shared/proof/tlog-proof.js';

const LEAF: LeafRecord = {
  digest: 'd14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f',
  length: 0,
  source: 'data',
  account: 'abc_-',
  timeMs: 1_700_000_000_000,
};

describe('leaf records', () => {
  it('encode to the documented text and parse back; anything else is refused', () => {
    const bytes = encodeLeaf(LEAF);
    expect(bytes.toString()).toBe(
      'sha224d-leaf/v1\ndigest d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f\nlength 0\nsource data\naccount abc_-\ntime 1700000000000\n',
    );
    expect(decodeLeaf(bytes)).toEqual(LEAF);
    for (const bad of [
      bytes.toString().replace('length 0', 'length 00'),
      bytes.toString().replace('source data', 'source disk'),
      bytes.toString().replace('d14a', 'D14A'),
      `${bytes.toString()}extra\n`,
      bytes.toString().slice(0, -1),
    ]) {
      expect(() => decodeLeaf(Buffer.from(bad))).toThrow(/malformed/);
    }
  });

  it('account tags are HMAC-SHA-256 under the log key, never the id', () => {
    const key = Buffer.alloc(32, 7);
    const tag = accountTag(key, 'acct_123');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(tag).not.toContain('acct');
    expect(accountTag(key, 'acct_124')).not.toBe(tag);
  });
});

describe('signed notes (Ed25519)', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pub = rawPublicKey(createPublicKey(privateKey));

  it('key id is SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4] and the verifier string carries it', () => {
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from('example.com/log\n'), Buffer.from([1]), pub]))
      .digest()
      .subarray(0, 4);
    expect(keyId('example.com/log', pub).equals(expected)).toBe(true);
    const key = logKeyOf('example.com/log', privateKey);
    expect(key.verifierKey).toBe(
      `example.com/log+${expected.toString('hex')}+${Buffer.concat([Buffer.from([1]), pub]).toString('base64')}`,
    );
    expect(parseVerifierKey(key.verifierKey).keyId.equals(expected)).toBe(true);
    const wrongId = key.verifierKey.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    expect(() => parseVerifierKey(wrongId)).toThrow(/key id/);
    expect(() => parseVerifierKey('no-plus')).toThrow();
  });

  it('signature line is "— name base64(keyid ‖ sig)" over the text, verified; tampering refused', () => {
    const note = signNote('hello\nworld\n', 'example.com/log', privateKey);
    const [text, sigLine] = note.split('\n\n');
    expect(text).toBe('hello\nworld');
    const m = /^\u2014 example\.com\/log (\S+)\n$/.exec(sigLine ?? '');
    const sig = Buffer.from(m?.[1] ?? '', 'base64');
    expect(sig.subarray(0, 4).equals(keyId('example.com/log', pub))).toBe(true);
    expect(sig.subarray(4).equals(sign(null, Buffer.from('hello\nworld\n'), privateKey))).toBe(true);
    const verifier = parseVerifierKey(logKeyOf('example.com/log', privateKey).verifierKey);
    expect(openNote(note, verifier)).toBe('hello\nworld\n');
    expect(() => openNote(note.replace('world', 'w0rld'), verifier)).toThrow(/does not verify/);
    const other = parseVerifierKey(logKeyOf('example.com/log', generateKeyPairSync('ed25519').privateKey).verifierKey);
    expect(() => openNote(note, other)).toThrow(/no signature/);
  });

  it('signing keys parse from PEM, base64 seed and note signer key alike', () => {
    const seed = seedOf(privateKey);
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const id = keyId('n', pub).toString('hex');
    for (const text of [
      pem,
      seed.toString('base64'),
      `PRIVATE+KEY+n+${id}+${Buffer.concat([Buffer.from([1]), seed]).toString('base64')}`,
    ]) {
      expect(seedOf(parseSigningKey(text)).equals(seed)).toBe(true);
    }
    expect(() => parseSigningKey('AAAA')).toThrow();
    expect(() => parseSigningKey(`PRIVATE+KEY+n+00000000+${Buffer.concat([Buffer.from([1]), seed]).toString('base64')}`)).toThrow(/key id/);
  });
});

describe('checkpoints and tlog-proofs', () => {
  const key = logKeyOf('example.com/log', generateKeyPairSync('ed25519').privateKey);
  const verifier = parseVerifierKey(key.verifierKey);
  const root = createHash('sha256').update('r').digest();

  it('checkpoint text is origin, size, base64 root; signed and opened', () => {
    const note = signCheckpoint({ origin: key.origin, size: 42, root }, key.origin, key.privateKey);
    expect(note.startsWith(`example.com/log\n42\n${root.toString('base64')}\n\n\u2014 example.com/log `)).toBe(true);
    expect(openCheckpoint(note, verifier)).toEqual({ origin: key.origin, size: 42, root });
    expect(() => openCheckpoint(note.replace('\n42\n', '\n43\n'), verifier)).toThrow();
    expect(() => openCheckpoint(note, verifier, 'other/log')).toThrow(/another log/);
    expect(() => parseCheckpointText('o\n042\nAAAA\n')).toThrow();
  });

  it('tlog-proof round trip with extra data', () => {
    const checkpoint = signCheckpoint({ origin: key.origin, size: 3, root }, key.origin, key.privateKey);
    const text = formatTlogProof({ extra: encodeLeaf(LEAF), index: 2, hashes: [root, root], checkpoint });
    expect(text.split('\n').slice(0, 3)).toEqual(['c2sp.org/tlog-proof@v1', `extra ${encodeLeaf(LEAF).toString('base64')}`, 'index 2']);
    const parsed = parseTlogProof(text);
    expect(parsed.index).toBe(2);
    expect(parsed.extra?.equals(encodeLeaf(LEAF))).toBe(true);
    expect(parsed.hashes).toHaveLength(2);
    expect(parsed.checkpoint).toBe(checkpoint);
    expect(() => parseTlogProof(text.replace('index 2', 'index 02'))).toThrow();
    expect(() => parseTlogProof(text.replace('c2sp.org/tlog-proof@v1', 'x'))).toThrow();
  });
});

describe('tiles', () => {
  it('paths follow the x-prefixed 3-digit encoding', () => {
    expect(encodeTileIndex(0)).toBe('000');
    expect(encodeTileIndex(1234067)).toBe('x001/x234/067');
    expect(tilePath({ level: 0, index: 1234067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(tilePath({ level: 1, index: 5, width: 17 })).toBe('tile/1/005.p/17');
    expect(tilePath({ level: 'entries', index: 0, width: 3 })).toBe('tile/entries/000.p/3');
    expect(parseTilePath('0/x001/x234/067')).toEqual({ level: 0, index: 1234067, width: 256 });
    expect(parseTilePath('entries/000.p/3')).toEqual({ level: 'entries', index: 0, width: 3 });
    for (const bad of ['0/1', '0/x000/001', '64/000', '0/000.p/0', '0/000.p/257', '0/000.p/256x', '01/000'])
      expect(parseTilePath(bad)).toBeUndefined();
  });

  it('entry bundles are uint16 length + bytes', () => {
    const bundle = entryBundle([Buffer.from('ab'), Buffer.alloc(0)]);
    expect(bundle.toString('hex')).toBe('000261620000');
    expect(parseEntryBundle(bundle).map((b) => b.toString())).toEqual(['ab', '']);
    expect(() => parseEntryBundle(Buffer.from('0005ab', 'hex'))).toThrow();
  });

  /** A client from the spec: fetch tile L/N (full or .p/W), hash level-8L nodes up to any level, rebuild MTH. */
  function rootFromTiles(size: number, fetch: (path: string) => Buffer): Buffer {
    const h = (...p: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(p)).digest();
    const node = (level: number, index: number): Buffer => {
      const L = Math.floor(level / 8);
      const sub = level % 8;
      // The node covers 2^sub consecutive hashes of tile level L starting at index·2^sub.
      const first = index * 2 ** sub;
      const width = 2 ** sub;
      const tileIndex = Math.floor(first / 256);
      const countAtL = Math.floor(size / 256 ** L);
      const tileWidth = Math.min(256, countAtL - tileIndex * 256);
      const path = `tile/${L}/${encodeTileIndex(tileIndex)}${tileWidth === 256 ? '' : `.p/${tileWidth}`}`;
      const tile = fetch(path);
      expect(tile.length).toBe(tileWidth * 32);
      let row: Buffer[] = [];
      for (let i = 0; i < width; i++) row.push(tile.subarray(((first % 256) + i) * 32, ((first % 256) + i + 1) * 32));
      while (row.length > 1) {
        const next: Buffer[] = [];
        for (let i = 0; i < row.length; i += 2) next.push(h(Buffer.from([1]), row[i] as Buffer, row[i + 1] as Buffer));
        row = next;
      }
      return row[0] as Buffer;
    };
    const mth = (start: number, end: number): Buffer => {
      const n = end - start;
      if (n === 0) return h();
      if ((n & (n - 1)) === 0 && start % n === 0) return node(Math.log2(n), start / n);
      let k = 1;
      while (k * 2 < n) k *= 2;
      return h(Buffer.from([1]), mth(start, start + k), mth(start + k, end));
    };
    return mth(0, size);
  }

  it('a verifier from the spec rebuilds the root from served tiles, for sizes across tile edges', () => {
    const tree = new MemoryTree();
    const entries: Buffer[] = [];
    const sizes = new Set([1, 2, 3, 255, 256, 257, 511, 512, 1000, 65535, 65536, 65537, 70000]);
    for (let i = 1; i <= 70000; i++) {
      const entry = Buffer.from(`entry ${i}`);
      entries.push(entry);
      tree.appendLeafHash(hashLeaf(entry));
      if (!sizes.has(i)) continue;
      const fetch = (path: string): Buffer => {
        const ref = parseTilePath(path.slice('tile/'.length));
        if (!ref || ref.level === 'entries' || !tileExists(ref, i)) throw new Error(`404 ${path}`);
        return hashTile(tree.read, ref.level, ref.index, ref.width);
      };
      expect(rootFromTiles(i, fetch).equals(tree.root(i))).toBe(true);
    }
    // The entries bundle of the first tile hashes to the level-0 tile.
    const bundle = entryBundle(entries.slice(0, 256));
    const leafHashes = Buffer.concat(parseEntryBundle(bundle).map((e) => hashLeaf(e)));
    expect(leafHashes.equals(hashTile(tree.read, 0, 0, 256))).toBe(true);
    expect(tileExists({ level: 0, index: 0, width: 256 }, 255)).toBe(false);
    expect(tileExists({ level: 0, index: 0, width: 200 }, 255)).toBe(true);
    expect(tileExists({ level: 1, index: 0, width: 1 }, 255)).toBe(false);
    expect(tileExists({ level: 1, index: 0, width: 1 }, 256)).toBe(true);
  });
});
