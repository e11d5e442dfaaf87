/** HMAC-SHA-224 (beyond the spec): RFC 4231, NIST CAVP HMAC [L=28], Wycheproof, and node:crypto. */
import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHA224 } from '../../shared/sdk/sha224.js';
import { loadNistHmac224, loadRfc4231, loadWycheproofHmac224 } from '../helpers/vectors.js';

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
      fc.property(fc.integer({ min: 0, max: 200 }), fc.uint8Array({ maxLength: 500 }), fc.string({ unit: 'grapheme', maxLength: 80 }), (keyLength, msg, text) => {
        const key = randomBytes(keyLength);
        expect(SHA224.hmac(key, msg)).toBe(createHmac('sha224', key).update(msg).digest('hex'));
        expect(SHA224.hmac(text, text, 'base64')).toBe(createHmac('sha224', text).update(text).digest('base64'));
        expect(Buffer.from(SHA224.hmac(key, text, 'bytes')).equals(createHmac('sha224', key).update(text).digest())).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
