/**
 * The client-side SHA-224 library in Node: NIST SHAVS vectors, a cross-check against node:crypto
 * and the server's hashing core, update() split points, input types, encodings and misuse.
 */
import { createHash, hash as nodeHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha224Hex } from '../../../shared/hashing/sha224.js';
import { SHA224, SHA224Class, sha224 } from '../../../api/clients/browser/src/sha224.js';
import { loadMonte, loadShaVectors, runMonte } from '../../helpers/vectors.js';
import { SHA224_ABC, SHA224_EMPTY } from '../../helpers/digests.js';

const ref = (data: Uint8Array | string): string => nodeHash('sha224', data, 'hex');

describe('NIST CAVP SHAVS vectors (FIPS 180-4)', () => {
  for (const file of ['SHA224ShortMsg.rsp', 'SHA224LongMsg.rsp'] as const) {
    const vectors = loadShaVectors(file);

    it(`${file}: all ${vectors.length} vectors, one-shot`, () => {
      expect(vectors.length).toBeGreaterThan(60);
      for (const v of vectors) expect(SHA224(v.msg), `Len = ${v.len}`).toBe(v.md);
    });

    it(`${file}: chunked in 1, 7, 63 and 65-byte updates`, () => {
      for (const v of vectors) {
        for (const step of [1, 7, 63, 65]) {
          const h = new SHA224Class();
          for (let i = 0; i < v.msg.length; i += step) h.update(v.msg.subarray(i, i + step));
          expect(h.digest(), `Len = ${v.len}, step ${step}`).toBe(v.md);
        }
      }
    });
  }

  it('SHA224Monte.rsp: 100 checkpoints of 1,000 iterations', () => {
    const { seed, checkpoints } = loadMonte();
    expect(checkpoints).toHaveLength(100);
    const got = runMonte(seed, checkpoints.length, (m) => Buffer.from(SHA224(m, 'bytes')));
    expect(got).toEqual(checkpoints.map((c) => c.md));
  });
});

describe('cross-check against node:crypto and the server core', () => {
  it('every length 0..4095 (block edges 55, 56, 63, 64, 119, 120 included)', () => {
    const data = randomBytes(4096);
    for (let n = 0; n < 4096; n++) {
      const m = data.subarray(0, n);
      expect(SHA224(m), `length ${n}`).toBe(ref(m));
    }
  });

  it('random larger lengths, one-shot and streamed in random chunks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4096, max: 300_000 }),
        fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 8 }),
        (n, steps) => {
          const m = randomBytes(n);
          const h = new SHA224Class();
          for (let i = 0, k = 0; i < n; k++) {
            const step = steps[k % steps.length]!;
            h.update(m.subarray(i, i + step));
            i += step;
          }
          expect(SHA224(m)).toBe(ref(m));
          expect(h.digest()).toBe(ref(m));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('gives the same digests as the server (shared/hashing/sha224.ts) for bytes and strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.string({ unit: 'grapheme', maxLength: 300 }), (bytes, text) => {
        expect(SHA224(bytes)).toBe(sha224Hex(bytes));
        expect(SHA224(text)).toBe(sha224Hex(text));
      }),
      { numRuns: 300 },
    );
  });

  it('every split point of a three-way update() sequence', () => {
    const m = randomBytes(200);
    const expected = ref(m);
    for (let i = 0; i <= m.length; i++) {
      for (let j = i; j <= m.length; j++) {
        const got = new SHA224Class().update(m.subarray(0, i)).update(m.subarray(i, j)).update(m.subarray(j)).digest();
        if (got !== expected) expect(got, `split at ${i}, ${j}`).toBe(expected);
      }
    }
  });

  it('stays correct past 512 MiB of input, where the bit length needs 64 bits', () => {
    const chunk = randomBytes(1 << 20);
    const tail = randomBytes(100);
    const ours = new SHA224Class(),
      theirs = createHash('sha224');
    for (let i = 0; i < 513; i++) {
      ours.update(chunk);
      theirs.update(chunk);
    }
    ours.update(tail);
    theirs.update(tail);
    expect(ours.digest()).toBe(theirs.digest('hex'));
  }, 120_000);
});

describe('API (docs/api.md "Client-side library")', () => {
  it('SHA224(message), SHA224.hash, SHA224Class.hash and new SHA224Class() agree', () => {
    const expected = SHA224_ABC;
    expect(SHA224('abc')).toBe(expected);
    expect(SHA224.hash('abc')).toBe(expected);
    expect(sha224('abc')).toBe(expected);
    expect(SHA224Class.hash('abc')).toBe(expected);
    expect(new SHA224.SHA224Class().update('a').update('bc').digest()).toBe(expected);
    expect(new SHA224Class().digest()).toBe(SHA224_EMPTY);
    expect(SHA224('', 'base64')).toBe(nodeHash('sha224', '', 'base64'));
    expect(SHA224.SHA224Class).toBe(SHA224Class);
    expect(sha224).toBe(SHA224);
  });

  it('is callable, with exactly the documented properties', () => {
    expect(typeof SHA224).toBe('function');
    expect(Object.keys(SHA224).sort()).toEqual(['SHA224Class', 'hash', 'hmac', 'verify']);
    expect(Object.keys(SHA224.hmac)).toEqual(['create']);
  });

  it('update() is chainable and returns the same context', () => {
    const h = new SHA224Class();
    expect(h.update('x')).toBe(h);
  });

  it('digest is 56 lowercase hex characters, or base64, or 28 bytes', () => {
    const m = randomBytes(77);
    expect(SHA224(m)).toMatch(/^[0-9a-f]{56}$/);
    expect(SHA224(m, 'hex')).toBe(ref(m));
    expect(SHA224(m, 'base64')).toBe(nodeHash('sha224', m, 'base64'));
    const bytes = SHA224(m, 'bytes');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes).equals(nodeHash('sha224', m, 'buffer'))).toBe(true);
    expect(new SHA224Class().update(m).digest('base64')).toBe(nodeHash('sha224', m, 'base64'));
  });

  it('accepts Uint8Array, Buffer, ArrayBuffer, SharedArrayBuffer, other views and arrays of bytes', () => {
    const m = randomBytes(300);
    const expected = ref(m);
    const ab = m.buffer.slice(m.byteOffset, m.byteOffset + m.length);
    const shared = new SharedArrayBuffer(m.length);
    new Uint8Array(shared).set(m);
    const padded = new Uint8Array(m.length + 8);
    padded.set(m, 4);
    expect(SHA224(new Uint8Array(m))).toBe(expected);
    expect(SHA224(m)).toBe(expected);
    expect(SHA224(ab)).toBe(expected);
    expect(SHA224(shared)).toBe(expected);
    expect(SHA224(new Uint16Array(ab))).toBe(expected); // its bytes, in memory order
    expect(SHA224(new DataView(padded.buffer, 4, m.length))).toBe(expected);
    expect(SHA224(padded.subarray(4, 4 + m.length))).toBe(expected);
    expect(SHA224(Array.from(m))).toBe(expected);
  });

  it('does not modify its input', () => {
    const m = randomBytes(130);
    const copy = Buffer.from(m);
    SHA224(m);
    new SHA224Class().update(m).digest();
    expect(m.equals(copy)).toBe(true);
  });

  it('a string hashes as its UTF-8 bytes', () => {
    for (const s of ['abc', 'héllo wörld', '日本語', '🙂🙃', 'x'.repeat(100_000), 'é'.repeat(40_000)]) {
      expect(SHA224(s)).toBe(ref(Buffer.from(s, 'utf8')));
    }
  });

  it('verify compares case-insensitively and rejects anything else', () => {
    const digest = SHA224('hello');
    expect(SHA224.verify('hello', digest)).toBe(true);
    expect(SHA224.verify('hello', digest.toUpperCase())).toBe(true);
    expect(SHA224.verify(new TextEncoder().encode('hello'), digest)).toBe(true);
    expect(SHA224.verify('hellO', digest)).toBe(false);
    expect(SHA224.verify('hello', digest.slice(0, 55))).toBe(false);
    expect(SHA224.verify('hello', `${digest}0`)).toBe(false);
    expect(SHA224.verify('hello', '')).toBe(false);
    // Only 'A'..'F' are folded: a control character 0x20 below a digit must not match it.
    const i = digest.search(/[0-9]/);
    expect(SHA224.verify('hello', digest.slice(0, i) + String.fromCharCode(digest.charCodeAt(i) - 0x20) + digest.slice(i + 1))).toBe(false);
  });
});

describe('misuse and invalid input', () => {
  const wrong: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a boolean', true],
    ['a bigint', 1n],
    ['a symbol', Symbol('x')],
    ['a plain object', { length: 3 }],
    ['a function', () => 0],
    ['a Date', new Date()],
    ['a Map', new Map()],
    ['a Set of bytes', new Set([1, 2])],
    ['a String object', new String('abc')],
  ];
  for (const [label, value] of wrong) {
    it(`rejects ${label} with a TypeError naming the argument`, () => {
      expect(() => SHA224(value as string)).toThrow(TypeError);
      expect(() => SHA224(value as string)).toThrow(/^message must be/);
      expect(() => new SHA224Class().update(value as string)).toThrow(/^message must be/);
      expect(() => SHA224.verify(value as string, '00')).toThrow(/^message must be/);
      expect(() => SHA224.hmac(value as string, 'm')).toThrow(/^key must be/);
    });
  }

  const badArrays: Array<[string, unknown[]]> = [
    ['256', [1, 256]],
    ['-1', [-1]],
    ['1.5', [1.5]],
    ['NaN', [NaN]],
    ["'1'", ['1']],
    ['null', [null]],
    ['a hole', Object.assign([1], { 2: 3 })],
    ['1n', [1n]],
  ];
  for (const [label, value] of badArrays) {
    it(`rejects an array holding ${label} with a TypeError naming the element`, () => {
      expect(() => SHA224(value as number[])).toThrow(TypeError);
      expect(() => SHA224(value as number[])).toThrow(/^message\[\d\] must be an integer 0\.\.255$/);
    });
  }

  it('rejects an unknown encoding with a RangeError and leaves the context usable', () => {
    for (const encoding of ['utf8', 'HEX', 'binary', '', null, 1, {}]) {
      expect(() => SHA224('a', encoding as 'hex')).toThrow(RangeError);
      expect(() => SHA224('a', encoding as 'hex')).toThrow(/^encoding must be 'hex', 'base64' or 'bytes'$/);
    }
    const h = new SHA224Class().update('abc');
    expect(() => h.digest('binary' as 'hex')).toThrow(/^encoding must be/);
    expect(h.digest()).toBe(ref('abc'));
    expect(() => SHA224.hmac('k', 'm', 'HEX' as 'hex')).toThrow(RangeError);
  });

  it('rejects a non-string expectedHash', () => {
    expect(() => SHA224.verify('a', 123 as unknown as string)).toThrow(TypeError);
    expect(() => SHA224.verify('a', 123 as unknown as string)).toThrow(/^expectedHash must be a string$/);
  });

  it('update() or digest() after digest() throws', () => {
    const h = new SHA224Class().update('abc');
    h.digest();
    expect(() => h.update('more')).toThrow(Error);
    expect(() => h.update('more')).toThrow(/^digest\(\) or destroy\(\) already called$/);
    expect(() => h.digest()).toThrow(/^digest\(\) or destroy\(\) already called$/);
    expect(() => h.clone()).toThrow(/^digest\(\) or destroy\(\) already called$/);
  });

  it('an invalid update() leaves the context unchanged', () => {
    const h = new SHA224Class().update('ab');
    expect(() => h.update(null as unknown as string)).toThrow(TypeError);
    expect(h.update('c').digest()).toBe(ref('abc'));
  });

  it('one-shot calls after a failed one are unaffected', () => {
    expect(() => SHA224([1, 2, 999])).toThrow(TypeError);
    expect(SHA224('abc')).toBe(ref('abc'));
  });
});
