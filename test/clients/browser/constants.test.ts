/**
 * block.ts computes K (FIPS 180-4 §4.2.2) with Math.cbrt instead of listing it. This checks it
 * against the printed table, and that the result does not depend on the engine's cube root: the
 * exact scaled fractions (integer cube roots of BigInts) stay at least 0.0247 from an integer.
 */
import { describe, expect, it } from 'vitest';
import { IV, K } from '../../../api/clients/browser/src/block.js';

// FIPS 180-4 §4.2.2, as printed.
const K_PRINTED = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

function icbrt(n: bigint): bigint {
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 3));
  for (;;) {
    const y = (2n * x + n / (x * x)) / 3n;
    if (y >= x) break;
    x = y;
  }
  while ((x + 1n) ** 3n <= n) x++;
  while (x ** 3n > n) x--;
  return x;
}

describe('SHA-256 constants', () => {
  it('K equals the table printed in FIPS 180-4 §4.2.2', () => {
    expect(Array.from(K, (k) => k >>> 0)).toEqual(K_PRINTED);
  });

  it('every scaled fraction is at least 0.0247 from an integer, so any cbrt within ~10^4 ulps gives K', () => {
    const primes: number[] = [];
    for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p)) primes.push(n);
    const EXTRA = 40n;
    let nearest = 1;
    primes.forEach((p, i) => {
      const r = icbrt(BigInt(p) << (3n * (32n + EXTRA))); // floor(cbrt(p) × 2^(32+40))
      expect(Number((r >> EXTRA) & 0xffffffffn), `K[${i}]`).toBe(K_PRINTED[i]);
      const frac = Number(r & ((1n << EXTRA) - 1n)) / 2 ** 40;
      nearest = Math.min(nearest, frac, 1 - frac);
    });
    expect(nearest).toBeGreaterThan(0.0247);
  });

  it('IV is the SHA-224 initial hash value of FIPS 180-4 §5.3.2', () => {
    expect(Array.from(IV, (h) => (h >>> 0).toString(16).padStart(8, '0'))).toEqual([
      'c1059ed8',
      '367cd507',
      '3070dd17',
      'f70e5939',
      'ffc00b31',
      '68581511',
      '64f98fa7',
      'befa4fa4',
    ]);
  });
});
