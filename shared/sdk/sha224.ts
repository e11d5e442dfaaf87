/**
 * Client-side SHA-224 (FIPS 180-4) and HMAC-SHA-224 (FIPS 198-1), computed locally with no HTTP
 * call (SPEC "Client-side library operations"). Browsers' WebCrypto has no SHA-224, so this fills
 * that gap. Pure JavaScript, no dependencies and no Node built-ins: it runs unchanged in browsers,
 * web workers, Node and Deno. Built by shared/sdk/build.ts into dist/sha224.mjs (ESM) and
 * dist/sha224.min.js (IIFE defining the global SHA224).
 */
import { compress, IV } from './block.js';
import { checkEncoding, encodeString, output, toBytes, utf8 } from './codec.js';
import type { Encoding, Message } from './types.js';

export type { Encoding, Message } from './types.js';

/** Strings are encoded in slices of this many UTF-16 units into SCRATCH (3 bytes per unit at most). */
const SLICE = 16384;
const SCRATCH = new Uint8Array(3 * SLICE);

/** U+FFFD in UTF-8: what TextEncoder writes for a high surrogate with no low surrogate after it. */
const REPLACEMENT = new Uint8Array([0xef, 0xbf, 0xbd]);

const SPENT = 'SHA224Class: digest() already called';

/** An incremental SHA-224 context: update() any number of times, then digest() once. */
export class SHA224Class {
  /** SHA-224 of message: lowercase hex (56 characters) unless another encoding is asked for. */
  static hash(this: void, message: Message, encoding?: 'hex' | 'base64'): string;
  static hash(this: void, message: Message, encoding: 'bytes'): Uint8Array;
  static hash(this: void, message: Message, encoding: Encoding = 'hex'): string | Uint8Array {
    return ONE.reset().update(message).digest(encoding as 'hex');
  }

  /** The intermediate hash value H(i) (FIPS 180-4 §6.2.2). */
  private readonly state = new Int32Array(8);
  /** A partial block: block[0..pos) are bytes not yet compressed. */
  private readonly block = new Uint8Array(64);
  private pos = 0;
  /** Bytes absorbed so far; exact up to 2^53. */
  private total = 0;
  /** A high surrogate that ended the last string, held back in case the next string starts with its low half. */
  private pending = '';
  private finished = false;

  constructor() {
    this.reset();
  }

  /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
  update(message: Message): this {
    if (this.finished) throw new Error(SPENT);
    if (typeof message === 'string') {
      let s = this.pending + message;
      this.pending = '';
      if (isHighSurrogate(s, s.length - 1)) {
        this.pending = s.slice(-1);
        s = s.slice(0, -1);
      }
      for (let i = 0, end; i < s.length; i = end) {
        end = Math.min(i + SLICE, s.length);
        // Never cut between the halves of a pair: the slice ends one unit early instead.
        if (end < s.length && isHighSurrogate(s, end - 1)) end--;
        this.absorb(SCRATCH, encodeString(s.slice(i, end), SCRATCH));
      }
    } else {
      const bytes = toBytes(message, 'message');
      this.flushPending();
      this.absorb(bytes, bytes.length);
    }
    return this;
  }

  /** Finishes the hash: lowercase hex unless another encoding is asked for. The context is then spent. */
  digest(encoding?: 'hex' | 'base64'): string;
  digest(encoding: 'bytes'): Uint8Array;
  digest(encoding: Encoding = 'hex'): string | Uint8Array {
    checkEncoding(encoding);
    if (this.finished) throw new Error(SPENT);
    this.flushPending();
    this.finished = true;
    // §5.1.1 padding: a 1 bit, zeros, then the bit length as a 64-bit big-endian integer, which
    // is exact below 2^53 bytes (past 512 MiB it no longer fits 32 bits).
    const { block: B, state: H, total } = this;
    let pos = this.pos;
    B[pos++] = 0x80;
    if (pos > 56) {
      B.fill(0, pos);
      compress(H, B, 0, 64);
      pos = 0;
    }
    B.fill(0, pos, 56);
    const high = Math.floor(total / 0x20000000), low = total << 3; // total × 8 = high × 2^32 + low
    for (let i = 0; i < 4; i++) {
      B[59 - i] = high >>> 8 * i;
      B[63 - i] = low >>> 8 * i;
    }
    compress(H, B, 0, 64);
    return output(H, encoding);
  }

  /** Back to H(0) (FIPS 180-4 §5.3.2) with nothing absorbed. */
  private reset(): this {
    this.state.set(IV);
    this.pos = this.total = 0;
    this.pending = '';
    this.finished = false;
    return this;
  }

  /** A held high surrogate followed by bytes or the end is lone: TextEncoder writes U+FFFD for it. */
  private flushPending(): void {
    if (this.pending) {
      this.pending = '';
      this.absorb(REPLACEMENT, 3);
    }
  }

  /** Absorbs M[0..end): fills the partial block, compresses whole blocks straight from M, keeps the rest. */
  private absorb(M: Uint8Array, end: number): void {
    const { block, state } = this;
    let pos = this.pos, i = 0;
    this.total += end;
    if (pos) {
      while (pos < 64 && i < end) block[pos++] = M[i++]!;
      if (pos < 64) {
        this.pos = pos;
        return;
      }
      compress(state, block, 0, 64);
      pos = 0;
    }
    const tail = end - (end - i) % 64;
    compress(state, M, i, tail);
    for (i = tail; i < end; i++) block[pos++] = M[i]!;
    this.pos = pos;
  }
}

/**
 * The context behind every one-shot call, reset each time: hashing 64 bytes then allocates
 * nothing but the digest, where a fresh context would allocate two typed arrays. Shared safely: between
 * reset() and digest() no user code runs, except element getters of an array message, and a
 * reentrant call from one of those makes the outer digest() throw rather than answer wrongly.
 */
const ONE = new SHA224Class();

function isHighSurrogate(s: string, i: number): boolean {
  return (s.charCodeAt(i) & 0xfc00) === 0xd800;
}

/** SHA-224 of message: lowercase hex (56 characters) unless another encoding is asked for. */
export const sha224: typeof SHA224Class.hash = SHA224Class.hash;

/** True when expectedHash is the hex SHA-224 of message, in either letter case. */
function verify(message: Message, expectedHash: string): boolean {
  if (typeof expectedHash !== 'string') throw new TypeError('expectedHash must be a string');
  const actual = sha224(message);
  // Accumulated rather than early-exit, so the time taken does not depend on where they differ.
  let diff = expectedHash.length ^ 56;
  for (let i = 0; i < 56; i++) {
    const c = expectedHash.charCodeAt(i);
    diff |= actual.charCodeAt(i) ^ (c > 64 && c < 71 ? c + 32 : c); // 'A'..'F' → 'a'..'f'
  }
  return !diff;
}

/** HMAC-SHA-224 (FIPS 198-1, RFC 2104) of message under key; a string key is UTF-8 encoded. */
function hmac(key: Message, message: Message, encoding?: 'hex' | 'base64'): string;
function hmac(key: Message, message: Message, encoding: 'bytes'): Uint8Array;
function hmac(key: Message, message: Message, encoding: Encoding = 'hex'): string | Uint8Array {
  checkEncoding(encoding);
  let k = typeof key === 'string' ? utf8().encode(key) : toBytes(key, 'key');
  if (k.length > 64) k = sha224(k, 'bytes'); // FIPS 198-1 §4 step 2: K0 = H(K)
  const pad = new Uint8Array(64);
  pad.set(k);
  for (let i = 0; i < 64; i++) pad[i]! ^= 0x36; // ipad
  const inner = new SHA224Class().update(pad).update(message).digest('bytes');
  for (let i = 0; i < 64; i++) pad[i]! ^= 0x36 ^ 0x5c; // opad
  return new SHA224Class().update(pad).update(inner).digest(encoding as 'hex');
}

/** The namespace the IIFE bundle publishes as the global SHA224. */
export const SHA224: {
  readonly hash: typeof sha224;
  readonly sha224: typeof sha224;
  readonly verify: typeof verify;
  readonly hmac: typeof hmac;
  readonly SHA224Class: typeof SHA224Class;
} = { hash: sha224, sha224, verify, hmac, SHA224Class };
