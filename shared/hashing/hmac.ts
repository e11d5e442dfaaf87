import { createHmac } from 'node:crypto';

/** HMAC-SHA-224 (RFC 2104 with FIPS 180-4 SHA-224; test vectors RFC 4231 §4). */
export function hmacSha224(key: Uint8Array, data: Uint8Array): Buffer {
  return createHmac('sha224', key).update(data).digest();
}
