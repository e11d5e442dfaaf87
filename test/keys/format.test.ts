import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, API_KEY_PREFIX, displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from '../../shared/keys/format.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  it('is s224_ + 38 base62 characters, 43 in all, and well-formed', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey();
      expect(key).toMatch(/^s224_[0-9A-Za-z]{38}$/);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(API_KEY_LENGTH).toBe(43);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 5000 }, generateApiKey));
    expect(keys.size).toBe(5000);
  });

  it('draws random characters uniformly (no modulo bias toward the first 8 symbols)', () => {
    const counts = new Map<string, number>();
    const n = 3000;
    for (let i = 0; i < n; i++) {
      for (const ch of generateApiKey().slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + 32)) {
        counts.set(ch, (counts.get(ch) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(62);
    const expected = (n * 32) / 62; // ≈ 1548; a biased `byte % 62` would give the first 8 symbols ≈ 1.24×
    const first8 = [...BASE62.slice(0, 8)].reduce((s, ch) => s + (counts.get(ch) ?? 0), 0) / 8;
    const rest = [...BASE62.slice(8)].reduce((s, ch) => s + (counts.get(ch) ?? 0), 0) / 54;
    expect(first8 / rest).toBeGreaterThan(0.95);
    expect(first8 / rest).toBeLessThan(1.05);
    for (const c of counts.values()) expect(Math.abs(c - expected)).toBeLessThan(expected * 0.15);
  });
});

describe('isWellFormedApiKey', () => {
  const key = generateApiKey();

  it('catches every one-character change, at every position, to every other base62 character', () => {
    let checked = 0;
    for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
      for (const ch of BASE62) {
        if (ch === key[i]) continue;
        expect(isWellFormedApiKey(key.slice(0, i) + ch + key.slice(i + 1))).toBe(false);
        checked++;
      }
    }
    expect(checked).toBe(38 * 61);
  });

  it('catches adjacent transpositions', () => {
    for (let i = API_KEY_PREFIX.length; i < key.length - 1; i++) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      expect(isWellFormedApiKey(swapped)).toBe(false);
    }
  });

  it.each([
    ['empty', ''],
    ['undefined', undefined],
    ['a number', 42],
    ['null', null],
    ['one character short', key.slice(0, -1)],
    ['one character long', `${key}A`],
    ['another prefix', `s225_${key.slice(5)}`],
    ['upper-case prefix', `S224_${key.slice(5)}`],
    ['surrounding space', ` ${key.slice(1)}`],
    ['a dash in the body', `${key.slice(0, 10)}-${key.slice(11)}`],
    ['a non-ASCII letter', `${key.slice(0, 10)}é${key.slice(11)}`],
    ['a Bearer prefix', `Bearer ${key}`],
  ])('refuses %s', (_label, value) => {
    expect(isWellFormedApiKey(value)).toBe(false);
  });

  it('property: any generated key passes and any single substitution fails', () => {
    fc.assert(
      fc.property(fc.integer({ min: API_KEY_PREFIX.length, max: API_KEY_LENGTH - 1 }), fc.integer({ min: 1, max: 61 }), (pos, shift) => {
        const k = generateApiKey();
        const mutated = BASE62[(BASE62.indexOf(k[pos]!) + shift) % 62]!;
        return isWellFormedApiKey(k) && !isWellFormedApiKey(k.slice(0, pos) + mutated + k.slice(pos + 1));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('hashApiKey and displayPrefix', () => {
  it('hashes the whole key with SHA-256, hex', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('shows the prefix and 7 random characters only', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(displayPrefix(key).startsWith(API_KEY_PREFIX)).toBe(true);
  });
});
