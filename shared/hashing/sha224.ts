import { createHash, hash as oneShotHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** SHA-224 digest size in bytes (FIPS 180-4 §6.3). */
export const SHA224_BYTES = 28;

/**
 * One-shot SHA-224. `crypto.hash` skips the Hash object allocation: 2.7× faster than
 * createHash at 64 B (measured on these machines), which is most of the API's traffic.
 */
export function sha224(data: Uint8Array | string): Buffer {
  return oneShotHash('sha224', data, 'buffer');
}

export function sha224Hex(data: Uint8Array | string): string {
  return oneShotHash('sha224', data, 'hex');
}

export function createSha224(): Hash {
  return createHash('sha224');
}

/** Hash a byte stream without holding it: memory stays at one chunk whatever the size. */
export async function sha224Stream(source: Readable | AsyncIterable<Uint8Array>): Promise<{ digest: Buffer; size: number }> {
  const h = createHash('sha224');
  let size = 0;
  for await (const chunk of source as AsyncIterable<Uint8Array>) {
    h.update(chunk);
    size += chunk.byteLength;
  }
  return { digest: h.digest(), size };
}
