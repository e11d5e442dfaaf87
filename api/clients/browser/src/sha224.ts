/**
 * Client-side SHA-224 (FIPS 180-4) and HMAC-SHA-224 (FIPS 198-1), computed locally with no HTTP
 * call: docs/api.md "Client-side library" — SHA224(message) with its alias
 * SHA224.hash, new SHA224Class() with update/digest, SHA224Class.hash, SHA224.verify. Browsers'
 * WebCrypto has no SHA-224, so this fills that gap. Pure JavaScript, no dependencies and no Node
 * built-ins. Built by api/clients/browser/build.ts into dist/sha224.mjs (ESM) and
 * dist/sha224.min.js (IIFE defining the globals SHA224 and SHA224Class).
 */
import { SHA224Class } from './context.js';
import { HmacSHA224 } from './hmac.js';
import type { Encoding, Message } from './types.js';

export type { Encoding, Message } from './types.js';
export { SHA224Class } from './context.js';
export { HmacSHA224 } from './hmac.js';

/** A one-shot SHA-224: lowercase hex (56 characters) unless another encoding is asked for. */
export interface HashFunction {
  (message: Message, encoding?: 'hex' | 'base64'): string;
  (message: Message, encoding: 'bytes'): Uint8Array;
}

/** HMAC-SHA-224 of message under key, one-shot; create(key) gives an incremental context. */
export interface HmacFunction {
  (key: Message, message: Message, encoding?: 'hex' | 'base64'): string;
  (key: Message, message: Message, encoding: 'bytes'): Uint8Array;
  /** An incremental HMAC-SHA-224 context under key (the same as new HmacSHA224(key)). */
  readonly create: (key: Message) => HmacSHA224;
}

/** The library: callable as SHA224(message) (a string is UTF-8 encoded), with the other operations of docs/api.md "Client-side library" as properties. */
export interface SHA224Function extends HashFunction {
  /** SHA224(message) under the contract's alias: SHA224.hash(message). */
  readonly hash: HashFunction;
  /** True when expectedHash is the hex SHA-224 of message, in either letter case. */
  readonly verify: (message: Message, expectedHash: string) => boolean;
  /** HMAC-SHA-224 (FIPS 198-1, RFC 2104); a string key is UTF-8 encoded. */
  readonly hmac: HmacFunction;
  /** The incremental context class (in the IIFE also the global SHA224Class). */
  readonly SHA224Class: typeof SHA224Class;
}

function verify(message: Message, expectedHash: string): boolean {
  if (typeof expectedHash !== 'string') throw new TypeError('expectedHash must be a string');
  const actual = SHA224Class.hash(message);
  // Accumulated rather than early-exit, so the time taken does not depend on where they differ.
  let diff = expectedHash.length ^ 56;
  for (let i = 0; i < 56; i++) {
    const c = expectedHash.charCodeAt(i);
    diff |= actual.charCodeAt(i) ^ (c > 64 && c < 71 ? c + 32 : c); // 'A'..'F' → 'a'..'f'
  }
  return !diff;
}

const hmac = Object.assign(
  (key: Message, message: Message, encoding?: Encoding) => new HmacSHA224(key).update(message).digest(encoding as 'hex'),
  { create: (key: Message) => new HmacSHA224(key) },
) as HmacFunction;

/** The library object: SHA224(message), SHA224.hash, .verify, .hmac, .SHA224Class. */
export const SHA224: SHA224Function = Object.assign(
  (message: Message, encoding?: Encoding) => SHA224Class.hash(message, encoding as 'hex'),
  { hash: SHA224Class.hash, verify, hmac, SHA224Class },
) as SHA224Function;

/** SHA224 under a lower-case name, for code that prefers one. */
export const sha224: SHA224Function = SHA224;

export default SHA224;
