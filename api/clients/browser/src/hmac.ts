/**
 * HMAC-SHA-224 (FIPS 198-1, RFC 2104), incremental: the key is absorbed once into an inner and an
 * outer SHA-224 context, the message streams into the inner one.
 */
import { checkEncoding, toBytes, utf8 } from './codec.js';
import { SHA224Class } from './context.js';
import type { Encoding, Message } from './types.js';

/** An incremental HMAC-SHA-224: update() any number of times, then digest() once. */
export class HmacSHA224 {
  /** SHA-224 context over K0 ⊕ ipad, then the message (FIPS 198-1 §4 steps 4-6). */
  private inner: SHA224Class;
  /** SHA-224 context over K0 ⊕ opad, given the inner digest at the end (steps 7-9). */
  private outer: SHA224Class;

  /** key: bytes, or a string (UTF-8 encoded); a key longer than the 64-byte block is hashed first. */
  constructor(key: Message) {
    let k = typeof key === 'string' ? utf8().encode(key) : toBytes(key, 'key');
    if (k.length > 64) k = SHA224Class.hash(k, 'bytes'); // FIPS 198-1 §4 step 2: K0 = H(K)
    const pad = new Uint8Array(64);
    pad.set(k);
    for (let i = 0; i < 64; i++) pad[i]! ^= 0x36; // ipad
    this.inner = new SHA224Class().update(pad);
    for (let i = 0; i < 64; i++) pad[i]! ^= 0x36 ^ 0x5c; // opad
    this.outer = new SHA224Class().update(pad);
    pad.fill(0); // K0 is key material: no copy of it outlives the contexts
  }

  /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
  update(message: Message): this {
    this.inner.update(message);
    return this;
  }

  /** The MAC: lowercase hex unless another encoding is asked for. The context is then finished and zeroed. */
  digest(encoding?: 'hex' | 'base64'): string;
  digest(encoding: 'bytes'): Uint8Array;
  digest(encoding: Encoding = 'hex'): string | Uint8Array {
    checkEncoding(encoding);
    return this.outer.update(this.inner.digest('bytes')).digest(encoding as 'hex');
  }

  /** An independent copy: the key stays absorbed in both, so one key can MAC many messages from one prefix. */
  clone(): HmacSHA224 {
    // Not through the constructor: the key is no longer here to absorb again, only its contexts.
    const copy = Object.create(HmacSHA224.prototype) as HmacSHA224;
    copy.inner = this.inner.clone();
    copy.outer = this.outer.clone();
    return copy;
  }

  /** Zeroes both contexts (and with them every trace of the key); any later use throws. */
  destroy(): void {
    this.inner.destroy();
    this.outer.destroy();
  }
}
