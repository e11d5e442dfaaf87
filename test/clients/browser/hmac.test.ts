/**
 * HMAC-SHA-224 (beyond the contract), one-shot and incremental: RFC 4231, NIST CAVP HMAC [L=28],
 * Wycheproof, and node:crypto; clone() and destroy() of an HMAC context.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SHA224Class } from '../../../api/clients/browser/src/sha224.js';
import { HmacSHA224, SHA224 } from '../../../api/clients/browser/src/sha224.js';
import { loadNistHmac224, loadRfc4231, loadWycheproofHmac224 } from '../../helpers/vectors.js';

describe('HMAC-SHA-224', () => {
  it('RFC 4231 test cases', () => {
    const vectors = loadRfc4231();
    expect(vectors).toHaveLength(7);
    for (const v of vectors) {
      const mac = SHA224.hmac(Buffer.from(v.key_hex, 'hex'), Buffer.from(v.data_hex, 'hex'));
      const expected = v.hmac_sha224_hex.toLowerCase();
      expect(v.truncate_bits ? mac.slice(0, v.truncate_bits / 4) : mac, v.name).toBe(expected);
    }
  });

  it('NIST CAVP HMAC.rsp [L=28], truncated to Tlen', () => {
    const vectors = loadNistHmac224();
    expect(vectors.length).toBe(375);
    for (const v of vectors) expect(SHA224.hmac(v.key, v.msg).slice(0, 2 * v.tlen)).toBe(v.mac);
  });

  it('Wycheproof: valid tags match, invalid ones do not', () => {
    for (const t of loadWycheproofHmac224()) {
      const mac = SHA224.hmac(Buffer.from(t.key, 'hex'), Buffer.from(t.msg, 'hex')).slice(0, t.tagSize / 4);
      if (t.result === 'valid') expect(mac, `tcId ${t.tcId}`).toBe(t.tag);
      else if (t.result === 'invalid') expect(mac, `tcId ${t.tcId}`).not.toBe(t.tag);
    }
  });

  it('matches node:crypto for keys around the 64-byte block size, string keys and messages, all encodings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.uint8Array({ maxLength: 500 }),
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        (keyLength, msg, text) => {
          const key = randomBytes(keyLength);
          expect(SHA224.hmac(key, msg)).toBe(createHmac('sha224', key).update(msg).digest('hex'));
          expect(SHA224.hmac(text, text, 'base64')).toBe(createHmac('sha224', text).update(text).digest('base64'));
          expect(Buffer.from(SHA224.hmac(key, text, 'bytes')).equals(createHmac('sha224', key).update(text).digest())).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('incremental HMAC-SHA-224', () => {
  const nodeMac = (key: Uint8Array | string, message: Uint8Array | string): string =>
    createHmac('sha224', key).update(message).digest('hex');

  it('RFC 4231 test cases, message fed in 1, 7 and 64-byte updates', () => {
    for (const v of loadRfc4231()) {
      const key = Buffer.from(v.key_hex, 'hex');
      const data = Buffer.from(v.data_hex, 'hex');
      for (const step of [1, 7, 64]) {
        const mac = SHA224.hmac.create(key);
        for (let i = 0; i < data.length; i += step) mac.update(data.subarray(i, i + step));
        const hex = mac.digest();
        expect(v.truncate_bits ? hex.slice(0, v.truncate_bits / 4) : hex, `${v.name}, step ${step}`).toBe(v.hmac_sha224_hex.toLowerCase());
      }
    }
  });

  it('every split point of a two-part message, against node:crypto', () => {
    const key = randomBytes(80); // longer than a block: hashed first
    const m = randomBytes(150);
    const expected = nodeMac(key, m);
    for (let i = 0; i <= m.length; i++) {
      expect(new HmacSHA224(key).update(m.subarray(0, i)).update(m.subarray(i)).digest(), `split at ${i}`).toBe(expected);
    }
  });

  it('string and byte keys of every length around the block size, every encoding', () => {
    for (let n = 0; n <= 130; n++) {
      const key = randomBytes(n);
      const m = randomBytes(n * 3);
      expect(new HmacSHA224(key).update(m).digest(), `key ${n} bytes`).toBe(nodeMac(key, m));
      expect(new HmacSHA224(Array.from(key)).update(m).digest('base64')).toBe(createHmac('sha224', key).update(m).digest('base64'));
    }
    const mac = SHA224.hmac.create('kéy 🔑').update('méssage').update(' 😀');
    expect(Buffer.from(mac.digest('bytes')).equals(createHmac('sha224', 'kéy 🔑').update('méssage 😀').digest())).toBe(true);
  });

  it('clone(): one key, one shared prefix, several independent messages', () => {
    const key = randomBytes(32);
    const base = new HmacSHA224(key).update('shared prefix|');
    const a = base.clone().update('a');
    const b = base.clone().update('b');
    expect(a).toBeInstanceOf(HmacSHA224);
    expect(b.digest()).toBe(nodeMac(key, 'shared prefix|b'));
    expect(a.digest()).toBe(nodeMac(key, 'shared prefix|a'));
    expect(base.digest()).toBe(nodeMac(key, 'shared prefix|'));
  });

  it('destroy() zeroes both keyed contexts; any later use throws Error', () => {
    const mac = new HmacSHA224(randomBytes(20)).update('x');
    const { inner, outer } = mac as unknown as { inner: SHA224Class; outer: SHA224Class };
    const stateOf = (h: SHA224Class): Int32Array => (h as unknown as { state: Int32Array }).state;
    expect(stateOf(outer).some((w) => w !== 0)).toBe(true);
    mac.destroy();
    expect(stateOf(inner).every((w) => w === 0)).toBe(true);
    expect(stateOf(outer).every((w) => w === 0)).toBe(true);
    for (const use of [() => mac.update('y'), () => mac.digest(), () => mac.clone()]) {
      expect(use).toThrow(Error);
      expect(use).toThrow(/^digest\(\) or destroy\(\) already called$/);
    }
  });

  it('digest() finishes it: a second digest() throws', () => {
    const mac = new HmacSHA224('k').update('m');
    expect(mac.digest()).toBe(nodeMac('k', 'm'));
    expect(() => mac.digest()).toThrow(/^digest\(\) or destroy\(\) already called$/);
  });

  it('refuses a wrong key with TypeError and an unknown encoding with RangeError, leaving the context usable', () => {
    for (const key of [null, undefined, 42, {}, [256], new Set([1])]) {
      expect(() => new HmacSHA224(key as string)).toThrow(TypeError);
      expect(() => SHA224.hmac.create(key as string)).toThrow(/^key(\[0\])? must be/);
    }
    const mac = new HmacSHA224('k').update('m');
    expect(() => mac.digest('hex ' as 'hex')).toThrow(RangeError);
    expect(mac.digest()).toBe(nodeMac('k', 'm'));
  });
});
