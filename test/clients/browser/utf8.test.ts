/**
 * Strings are hashed as TextEncoder encodes them, including across update() calls: the reference
 * is always TextEncoder applied to the whole concatenated string.
 */
import { hash as nodeHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHA224Class, sha224 } from '../../../api/clients/browser/src/sha224.js';

const encoder = new TextEncoder();
const ref = (s: string): string => nodeHash('sha224', encoder.encode(s), 'hex');
const streamed = (parts: string[]): string => parts.reduce((h, p) => h.update(p), new SHA224Class()).digest();

const HIGH = '\uD83D',
  LOW = '\uDE00'; // together U+1F600
const cases: Array<[string, string]> = [
  ['ASCII', 'The quick brown fox'],
  ['two-byte', 'ÅÄÖ ñ ß'],
  ['three-byte', '€ 日本語 \uFFFF \uFEFF'],
  ['astral (four-byte)', '😀 𝄞 🏳️‍🌈 \u{10FFFF}'],
  ['lone high surrogate at the end', `abc${HIGH}`],
  ['lone high surrogate in the middle', `a${HIGH}b`],
  ['lone low surrogate', `a${LOW}b`],
  ['reversed pair', `${LOW}${HIGH}`],
  ['two high surrogates then a low', `${HIGH}${HIGH}${LOW}`],
  ['only a high surrogate', HIGH],
  ['NUL and controls', '\0\x01\x7f\x80'],
];

describe('UTF-8 encoding of strings (TextEncoder semantics)', () => {
  for (const [label, s] of cases) {
    it(`${label}: one-shot and one character at a time`, () => {
      expect(sha224(s)).toBe(ref(s));
      expect(streamed([...s.split('')])).toBe(ref(s));
    });
  }

  it('a surrogate pair split across two update() calls is one character', () => {
    expect(streamed(['x', HIGH, LOW, 'y'])).toBe(ref(`x${HIGH}${LOW}y`));
    expect(streamed([`a${HIGH}`, `${LOW}b`])).toBe(ref('a😀b'));
    expect(streamed([HIGH, '', LOW])).toBe(ref('😀'));
  });

  it('a held high surrogate followed by bytes, or by nothing, becomes U+FFFD', () => {
    const h = new SHA224Class().update(`a${HIGH}`).update(new Uint8Array([0x62]));
    expect(h.digest()).toBe(ref(`a\uFFFDb`));
    expect(streamed([`a${HIGH}`])).toBe(ref(`a${HIGH}`));
    expect(streamed([HIGH, 'b'])).toBe(ref(`${HIGH}b`));
  });

  it('long strings: pairs straddling the internal 16,384-unit slices, mixed scripts', () => {
    for (const n of [16383, 16384, 16385, 50_000]) {
      const s = 'a'.repeat(n - 1) + '😀'.repeat(3) + 'é'.repeat(n);
      expect(sha224(s)).toBe(ref(s));
      expect(streamed([s.slice(0, n), s.slice(n)])).toBe(ref(s));
    }
    const lone = `${HIGH}x`.repeat(20_000);
    expect(sha224(lone)).toBe(ref(lone));
  });

  it('random strings, including lone surrogates, split at random points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.array(fc.nat(), { maxLength: 5 }), (s, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
        const parts: string[] = [];
        let last = 0;
        for (const p of points) {
          parts.push(s.slice(last, p));
          last = p;
        }
        parts.push(s.slice(last));
        expect(sha224(s)).toBe(ref(s));
        expect(streamed(parts)).toBe(ref(s));
      }),
      { numRuns: 1000 },
    );
  });
});
