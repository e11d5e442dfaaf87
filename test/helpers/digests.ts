/**
 * Known SHA-224 answers, and node:crypto as the independent reference that tests cross-check the
 * service against (never the service's own shared/hashing, which is what is under test).
 * test/hashing/known-digests.test.ts holds these constants against node:crypto and the NIST file.
 */
import { createHash } from 'node:crypto';

/** SHA-224("abc"): RFC 3874 §3.1, test vector 1. */
export const SHA224_ABC = '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7';

/** SHA-224 of the empty message: SHA224ShortMsg.rsp, Len = 0. */
export const SHA224_EMPTY = 'd14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f';

/** The 448-bit message of RFC 3874 §3.2 (two blocks once padded) and its SHA-224. */
export const TWO_BLOCK_MESSAGE = 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq';
export const SHA224_TWO_BLOCK = '75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525';

/** The SHA-224 digest of `data` (a string is taken as UTF-8), by node:crypto. */
export function sha224Bytes(data: string | Uint8Array): Buffer {
  return createHash('sha224').update(data).digest();
}

/** Lowercase hex of the SHA-224 of `data`, by node:crypto. */
export function sha224Hex(data: string | Uint8Array): string {
  return sha224Bytes(data).toString('hex');
}

/** Base64 (RFC 4648 §4, padded) of the SHA-224 of `data`, by node:crypto. */
export function sha224Base64(data: string | Uint8Array): string {
  return sha224Bytes(data).toString('base64');
}
