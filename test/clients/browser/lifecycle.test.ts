/**
 * What a context and the module keep: clone() gives an independent copy, destroy() and digest()
 * zero the state and the buffered input, and the shared one-shot context and string scratch
 * buffer hold none of the last input once a call returns. Private fields are read by their
 * source names (TypeScript's `private` is compile-time only).
 */
import { hash as nodeHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { moduleBuffers } from '../../../api/clients/browser/src/context.js';
import { SHA224, SHA224Class } from '../../../api/clients/browser/src/sha224.js';

const ref = (data: Uint8Array | string): string => nodeHash('sha224', data, 'hex');

interface Internals {
  state: Int32Array;
  block: Uint8Array;
  pos: number;
  total: number;
  pending: string;
}
const internals = (h: SHA224Class): Internals => h as unknown as Internals;

/** True when every byte is zero: nothing of any input is left. */
const zeroed = (bytes: Uint8Array | Int32Array): boolean => bytes.every((b) => b === 0);

const FINISHED = /^digest\(\) or destroy\(\) already called$/;

describe('clone()', () => {
  it('continues from the same point: clones at every offset of a message give its digest', () => {
    const m = randomBytes(300);
    for (let i = 0; i <= m.length; i += 7) {
      const h = new SHA224Class().update(m.subarray(0, i));
      const copy = h.clone();
      expect(copy).toBeInstanceOf(SHA224Class);
      expect(copy).not.toBe(h);
      expect(copy.update(m.subarray(i)).digest(), `clone at ${i}`).toBe(ref(m));
      expect(h.update(m.subarray(i)).digest(), `original at ${i}`).toBe(ref(m));
    }
  });

  it('is independent: updating, digesting or destroying one leaves the other as it was', () => {
    const h = new SHA224Class().update('common prefix, ');
    const a = h.clone();
    const b = h.clone();
    a.update('then a');
    b.update('then b');
    expect(h.digest()).toBe(ref('common prefix, '));
    expect(a.digest()).toBe(ref('common prefix, then a'));
    const c = b.clone();
    b.destroy();
    expect(c.update('!').digest()).toBe(ref('common prefix, then b!'));
  });

  it('copies a held high surrogate, so a pair split across the clone point is one character', () => {
    const h = new SHA224Class().update('x\uD83D');
    const copy = h.clone();
    expect(copy.update('\uDE00').digest()).toBe(ref('x😀'));
    expect(h.digest()).toBe(ref('x\uD83D'));
  });

  it('owns its buffers: no typed array is shared with the original', () => {
    const h = new SHA224Class().update(randomBytes(70));
    const copy = h.clone();
    expect(internals(copy).state).not.toBe(internals(h).state);
    expect(internals(copy).block).not.toBe(internals(h).block);
    expect(Array.from(internals(copy).state)).toEqual(Array.from(internals(h).state));
  });
});

describe('destroy()', () => {
  it('zeroes the state, the partial block, the counters and a held surrogate', () => {
    const h = new SHA224Class().update(randomBytes(100)).update('tail\uD83D');
    expect(zeroed(internals(h).state)).toBe(false);
    expect(zeroed(internals(h).block)).toBe(false);
    h.destroy();
    expect(zeroed(internals(h).state)).toBe(true);
    expect(zeroed(internals(h).block)).toBe(true);
    expect(internals(h)).toMatchObject({ pos: 0, total: 0, pending: '' });
  });

  it('then any use throws Error; destroy() itself may be called again', () => {
    const h = new SHA224Class().update('abc');
    h.destroy();
    expect(() => h.update('x')).toThrow(Error);
    expect(() => h.update('x')).toThrow(FINISHED);
    expect(() => h.digest()).toThrow(FINISHED);
    expect(() => h.clone()).toThrow(FINISHED);
    expect(() => h.destroy()).not.toThrow();
  });

  it('digest() leaves the context zeroed as well', () => {
    const h = new SHA224Class().update(randomBytes(90));
    h.digest();
    expect(zeroed(internals(h).state)).toBe(true);
    expect(zeroed(internals(h).block)).toBe(true);
  });
});

describe('nothing of the input stays in the module after a call', () => {
  it('the one-shot context is zeroed after SHA224(bytes), SHA224(string) and a failed call', () => {
    const { one } = moduleBuffers();
    for (const message of [randomBytes(100), 'secret passphrase 🔑', randomBytes(64)]) {
      expect(SHA224(message)).toBe(ref(message));
      expect(zeroed(internals(one).block)).toBe(true);
      expect(zeroed(internals(one).state)).toBe(true);
      expect(internals(one)).toMatchObject({ pos: 0, total: 0, pending: '' });
    }
    // A refused encoding is only found once the message is absorbed; it is zeroed all the same.
    expect(() => SHA224('secret', 'utf8' as 'hex')).toThrow(RangeError);
    expect(zeroed(internals(one).block)).toBe(true);
    expect(internals(one)).toMatchObject({ pos: 0, total: 0, pending: '' });
    // Likewise when an array's element getter calls SHA224 re-entrantly: the outer call throws, and keeps nothing.
    const reentrant = [1, 2, 3];
    Object.defineProperty(reentrant, 1, { get: () => (SHA224('inner'), 2) });
    expect(() => SHA224(reentrant)).toThrow(/^digest\(\) or destroy\(\) already called$/);
    expect(zeroed(internals(one).block)).toBe(true);
    expect(SHA224(reentrant.slice())).toBe(ref(new Uint8Array([1, 2, 3])));
  });

  it('the string scratch buffer is zeroed after every string update, short or longer than one slice', () => {
    const { scratch } = moduleBuffers();
    for (const s of ['short secret', 'é'.repeat(40_000) + 'secret', 'a'.repeat(16_385)]) {
      SHA224(s);
      expect(zeroed(scratch), `${s.length} units`).toBe(true);
      const h = new SHA224Class().update(s);
      expect(zeroed(scratch)).toBe(true);
      expect(h.digest()).toBe(ref(s));
    }
  });

  it('a refused update (wrong type) leaves the scratch buffer and the context untouched', () => {
    const { scratch } = moduleBuffers();
    const h = new SHA224Class().update('ab');
    expect(() => h.update({} as unknown as string)).toThrow(TypeError);
    expect(zeroed(scratch)).toBe(true);
    expect(h.update('c').digest()).toBe(ref('abc'));
  });
});
