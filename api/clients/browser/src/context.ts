/**
 * The incremental SHA-224 context (FIPS 180-4): SHA224Class of docs/api.md
 * "Client-side library". Pure JavaScript with no Node built-ins, so it runs unchanged in browsers, web
 * workers, Node and Deno.
 */
import { compress, IV } from './block.js';
import { checkEncoding, encodeString, output, toBytes } from './codec.js';
import type { Encoding, Message } from './types.js';

/** Strings are encoded in slices of this many UTF-16 units into SCRATCH (3 bytes per unit at most). */
const SLICE = 16384;
/** Shared by every context; zeroed after each use, so it holds no input between calls. */
const SCRATCH = new Uint8Array(3 * SLICE);

/** U+FFFD in UTF-8: what TextEncoder writes for a high surrogate with no low surrogate after it. */
const REPLACEMENT = new Uint8Array([0xef, 0xbf, 0xbd]);

/** One message for update/digest/clone after digest() or destroy(): both leave nothing to continue from. */
const FINISHED = 'digest() or destroy() already called';

/** An incremental SHA-224 context: update() any number of times, then digest() once. */
export class SHA224Class {
  /** SHA-224 of message: lowercase hex (56 characters) unless another encoding is asked for. */
  static hash(this: void, message: Message, encoding?: 'hex' | 'base64'): string;
  static hash(this: void, message: Message, encoding: 'bytes'): Uint8Array;
  static hash(this: void, message: Message, encoding: Encoding = 'hex'): string | Uint8Array {
    try {
      return ONE.reset()
        .update(message)
        .digest(encoding as 'hex');
    } catch (error) {
      // A refused encoding is found after the message was absorbed: zero it before reporting.
      ONE.destroy();
      throw error;
    }
  }

  /** The intermediate hash value H(i) (FIPS 180-4 §6.2.2). */
  private readonly state = new Int32Array(8);
  /** A partial block: block[0..pos) are bytes not yet compressed. */
  private readonly block = new Uint8Array(64);
  // The fields below are set by reset(), which the constructor calls.
  private pos!: number;
  /** Bytes absorbed so far; exact up to 2^53. */
  private total!: number;
  /** A high surrogate that ended the last string, held back in case the next string starts with its low half. */
  private pending!: string;
  /** Set by digest() and destroy(); the state is zeroed then. */
  private finished!: boolean;

  constructor() {
    this.reset();
  }

  /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
  update(message: Message): this {
    this.check();
    if (typeof message === 'string') {
      let s = this.pending + message;
      this.pending = '';
      if (isHighSurrogate(s, s.length - 1)) {
        this.pending = s.slice(-1);
        s = s.slice(0, -1);
      }
      for (let i = 0, end, n; i < s.length; i = end) {
        end = Math.min(i + SLICE, s.length);
        // Never cut between the halves of a pair: the slice ends one unit early instead.
        if (end < s.length && isHighSurrogate(s, end - 1)) end--;
        this.absorb(SCRATCH, (n = encodeString(s.slice(i, end), SCRATCH)));
        SCRATCH.fill(0, 0, n);
      }
    } else {
      const bytes = toBytes(message, 'message');
      this.flushPending();
      this.absorb(bytes, bytes.length);
    }
    return this;
  }

  /** Finishes the hash: lowercase hex unless another encoding is asked for. The context is then finished and zeroed. */
  digest(encoding?: 'hex' | 'base64'): string;
  digest(encoding: 'bytes'): Uint8Array;
  digest(encoding: Encoding = 'hex'): string | Uint8Array {
    checkEncoding(encoding);
    this.check();
    this.flushPending();
    // FIPS 180-4 §5.1.1 padding: a 1 bit, zeros, then the bit length as a 64-bit big-endian integer, which
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
    const high = Math.floor(total / 0x20000000),
      low = total << 3; // total × 8 = high × 2^32 + low
    for (let i = 0; i < 4; i++) {
      B[59 - i] = high >>> (8 * i);
      B[63 - i] = low >>> (8 * i);
    }
    compress(H, B, 0, 64);
    const digest = output(H, encoding);
    this.destroy();
    return digest;
  }

  /** An independent copy of this context: updating either leaves the other as it was. */
  clone(): SHA224Class {
    this.check();
    const copy = new SHA224Class();
    copy.state.set(this.state);
    copy.block.set(this.block);
    copy.pos = this.pos;
    copy.total = this.total;
    copy.pending = this.pending;
    return copy;
  }

  /** Zeroes the state and the buffered input; any later update(), digest() or clone() throws. */
  destroy(): void {
    this.state.fill(0);
    this.block.fill(0);
    this.pos = this.total = 0;
    this.pending = '';
    this.finished = true;
  }

  /** Back to H(0) (FIPS 180-4 §5.3.2) with nothing absorbed. */
  private reset(): this {
    this.state.set(IV);
    this.pos = this.total = 0;
    this.pending = '';
    this.finished = false;
    return this;
  }

  private check(): void {
    if (this.finished) throw new Error(FINISHED);
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
    let pos = this.pos,
      i = 0;
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
    const tail = end - ((end - i) % 64);
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
 * digest() zeroes it, so it keeps nothing of the last message.
 */
const ONE = new SHA224Class();

function isHighSurrogate(s: string, i: number): boolean {
  return (s.charCodeAt(i) & 0xfc00) === 0xd800;
}

/**
 * @internal What this module keeps between calls, for the tests that check it keeps no input
 * (left out of the published types and, unused by the entry point, out of the bundles).
 */
export function moduleBuffers(): { scratch: Uint8Array; one: SHA224Class } {
  return { scratch: SCRATCH, one: ONE };
}
