/*! sha224d client-side SHA-224 | MIT */

// src/block.ts
var K = new Int32Array(64);
for (let n = 2, i = 0; i < 64; n++) {
  let d = 2;
  while (n % d) d++;
  if (d === n) K[i++] = Math.cbrt(n) % 1 * 2 ** 32;
}
var IV = new Int32Array([
  3238371032,
  914150663,
  812702999,
  4144912697,
  4290775857,
  1750603025,
  1694076839,
  3204075428
]);
function compress(H, M, offset, end) {
  let h0 = H[0], h1 = H[1], h2 = H[2], h3 = H[3], h4 = H[4], h5 = H[5], h6 = H[6], h7 = H[7];
  for (; offset < end; ) {
    let W0 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W1 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W2 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W3 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W4 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W5 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W6 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W7 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W8 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W9 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W10 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W11 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W12 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W13 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W14 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let W15 = M[offset] << 24 | M[offset + 1] << 16 | M[offset + 2] << 8 | M[offset + 3];
    offset += 4;
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7, T1, T2, x, y;
    for (let t = 0; ; ) {
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W0 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W1 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W2 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W3 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W4 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W5 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W6 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W7 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W8 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W9 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W10 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W11 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W12 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W13 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W14 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      T1 = h + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) + (g ^ e & (f ^ g)) + K[t++] + W15 | 0;
      T2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) + (a & b | c & (a | b)) | 0;
      h = g;
      g = f;
      f = e;
      e = d + T1 | 0;
      d = c;
      c = b;
      b = a;
      a = T1 + T2 | 0;
      if (t === 64) break;
      x = W14;
      y = W1;
      W0 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W9 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W0 | 0;
      x = W15;
      y = W2;
      W1 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W10 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W1 | 0;
      x = W0;
      y = W3;
      W2 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W11 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W2 | 0;
      x = W1;
      y = W4;
      W3 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W12 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W3 | 0;
      x = W2;
      y = W5;
      W4 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W13 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W4 | 0;
      x = W3;
      y = W6;
      W5 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W14 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W5 | 0;
      x = W4;
      y = W7;
      W6 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W15 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W6 | 0;
      x = W5;
      y = W8;
      W7 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W0 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W7 | 0;
      x = W6;
      y = W9;
      W8 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W1 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W8 | 0;
      x = W7;
      y = W10;
      W9 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W2 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W9 | 0;
      x = W8;
      y = W11;
      W10 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W3 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W10 | 0;
      x = W9;
      y = W12;
      W11 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W4 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W11 | 0;
      x = W10;
      y = W13;
      W12 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W5 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W12 | 0;
      x = W11;
      y = W14;
      W13 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W6 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W13 | 0;
      x = W12;
      y = W15;
      W14 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W7 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W14 | 0;
      x = W13;
      y = W0;
      W15 = ((x >>> 17 | x << 15) ^ (x >>> 19 | x << 13) ^ x >>> 10) + W8 + ((y >>> 7 | y << 25) ^ (y >>> 18 | y << 14) ^ y >>> 3) + W15 | 0;
    }
    h0 = h0 + a | 0;
    h1 = h1 + b | 0;
    h2 = h2 + c | 0;
    h3 = h3 + d | 0;
    h4 = h4 + e | 0;
    h5 = h5 + f | 0;
    h6 = h6 + g | 0;
    h7 = h7 + h | 0;
  }
  H[0] = h0;
  H[1] = h1;
  H[2] = h2;
  H[3] = h3;
  H[4] = h4;
  H[5] = h5;
  H[6] = h6;
  H[7] = h7;
}

// src/codec.ts
function toBytes(message, name) {
  if (message instanceof Uint8Array) return message;
  if (ArrayBuffer.isView(message)) return new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
  if (Object.prototype.toString.call(message).endsWith("ArrayBuffer]")) return new Uint8Array(message);
  if (Array.isArray(message)) {
    const bytes = new Uint8Array(message.length);
    for (let i = 0; i < bytes.length; i++) {
      const v = message[i];
      if (typeof v !== "number" || v !== (v & 255)) throw new TypeError(`${name}[${i}] must be an integer 0..255`);
      bytes[i] = v;
    }
    return bytes;
  }
  throw new TypeError(`${name} must be a string, ArrayBuffer, typed array or byte array`);
}
var encoder;
function utf8() {
  return encoder || (encoder = new TextEncoder());
}
function encodeString(s, out) {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) return i + utf8().encodeInto(s.slice(i), out.subarray(i)).written;
    out[i] = c;
  }
  return n;
}
var HEX = [];
for (let i = 256; i < 512; i++) HEX.push(i.toString(16).slice(1));
function checkEncoding(encoding) {
  if (encoding !== "hex" && encoding !== "base64" && encoding !== "bytes") {
    throw new RangeError(`encoding must be 'hex', 'base64' or 'bytes'`);
  }
}
function output(H, encoding) {
  if (encoding === "hex") {
    let hex = "";
    for (let i = 0; i < 7; i++) {
      const w = H[i];
      hex += HEX[w >>> 24] + HEX[w >>> 16 & 255] + HEX[w >>> 8 & 255] + HEX[w & 255];
    }
    return hex;
  }
  const bytes = new Uint8Array(28);
  for (let i = 0; i < 28; i++) bytes[i] = H[i >> 2] >>> 24 - 8 * (i & 3);
  return encoding === "bytes" ? bytes : btoa(String.fromCharCode(...bytes));
}

// src/context.ts
var SLICE = 16384;
var SCRATCH = new Uint8Array(3 * SLICE);
var REPLACEMENT = new Uint8Array([239, 191, 189]);
var FINISHED = "digest() or destroy() already called";
var SHA224Class = class _SHA224Class {
  constructor() {
    /** The intermediate hash value H(i) (FIPS 180-4 §6.2.2). */
    this.state = new Int32Array(8);
    /** A partial block: block[0..pos) are bytes not yet compressed. */
    this.block = new Uint8Array(64);
    this.reset();
  }
  static hash(message, encoding = "hex") {
    try {
      return ONE.reset().update(message).digest(encoding);
    } catch (error) {
      ONE.destroy();
      throw error;
    }
  }
  /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
  update(message) {
    this.check();
    if (typeof message === "string") {
      let s = this.pending + message;
      this.pending = "";
      if (isHighSurrogate(s, s.length - 1)) {
        this.pending = s.slice(-1);
        s = s.slice(0, -1);
      }
      for (let i = 0, end, n; i < s.length; i = end) {
        end = Math.min(i + SLICE, s.length);
        if (end < s.length && isHighSurrogate(s, end - 1)) end--;
        this.absorb(SCRATCH, n = encodeString(s.slice(i, end), SCRATCH));
        SCRATCH.fill(0, 0, n);
      }
    } else {
      const bytes = toBytes(message, "message");
      this.flushPending();
      this.absorb(bytes, bytes.length);
    }
    return this;
  }
  digest(encoding = "hex") {
    checkEncoding(encoding);
    this.check();
    this.flushPending();
    const { block: B, state: H, total } = this;
    let pos = this.pos;
    B[pos++] = 128;
    if (pos > 56) {
      B.fill(0, pos);
      compress(H, B, 0, 64);
      pos = 0;
    }
    B.fill(0, pos, 56);
    const high = Math.floor(total / 536870912), low = total << 3;
    for (let i = 0; i < 4; i++) {
      B[59 - i] = high >>> 8 * i;
      B[63 - i] = low >>> 8 * i;
    }
    compress(H, B, 0, 64);
    const digest = output(H, encoding);
    this.destroy();
    return digest;
  }
  /** An independent copy of this context: updating either leaves the other as it was. */
  clone() {
    this.check();
    const copy = new _SHA224Class();
    copy.state.set(this.state);
    copy.block.set(this.block);
    copy.pos = this.pos;
    copy.total = this.total;
    copy.pending = this.pending;
    return copy;
  }
  /** Zeroes the state and the buffered input; any later update(), digest() or clone() throws. */
  destroy() {
    this.state.fill(0);
    this.block.fill(0);
    this.pos = this.total = 0;
    this.pending = "";
    this.finished = true;
  }
  /** Back to H(0) (FIPS 180-4 §5.3.2) with nothing absorbed. */
  reset() {
    this.state.set(IV);
    this.pos = this.total = 0;
    this.pending = "";
    this.finished = false;
    return this;
  }
  check() {
    if (this.finished) throw new Error(FINISHED);
  }
  /** A held high surrogate followed by bytes or the end is lone: TextEncoder writes U+FFFD for it. */
  flushPending() {
    if (this.pending) {
      this.pending = "";
      this.absorb(REPLACEMENT, 3);
    }
  }
  /** Absorbs M[0..end): fills the partial block, compresses whole blocks straight from M, keeps the rest. */
  absorb(M, end) {
    const { block, state } = this;
    let pos = this.pos, i = 0;
    this.total += end;
    if (pos) {
      while (pos < 64 && i < end) block[pos++] = M[i++];
      if (pos < 64) {
        this.pos = pos;
        return;
      }
      compress(state, block, 0, 64);
      pos = 0;
    }
    const tail = end - (end - i) % 64;
    compress(state, M, i, tail);
    for (i = tail; i < end; i++) block[pos++] = M[i];
    this.pos = pos;
  }
};
var ONE = new SHA224Class();
function isHighSurrogate(s, i) {
  return (s.charCodeAt(i) & 64512) === 55296;
}

// src/hmac.ts
var HmacSHA224 = class _HmacSHA224 {
  /** key: bytes, or a string (UTF-8 encoded); a key longer than the 64-byte block is hashed first. */
  constructor(key) {
    let k = typeof key === "string" ? utf8().encode(key) : toBytes(key, "key");
    if (k.length > 64) k = SHA224Class.hash(k, "bytes");
    const pad = new Uint8Array(64);
    pad.set(k);
    for (let i = 0; i < 64; i++) pad[i] ^= 54;
    this.inner = new SHA224Class().update(pad);
    for (let i = 0; i < 64; i++) pad[i] ^= 54 ^ 92;
    this.outer = new SHA224Class().update(pad);
    pad.fill(0);
  }
  /** Absorbs message (a string is UTF-8 encoded) and returns this context. */
  update(message) {
    this.inner.update(message);
    return this;
  }
  digest(encoding = "hex") {
    checkEncoding(encoding);
    return this.outer.update(this.inner.digest("bytes")).digest(encoding);
  }
  /** An independent copy: the key stays absorbed in both, so one key can MAC many messages from one prefix. */
  clone() {
    const copy = Object.create(_HmacSHA224.prototype);
    copy.inner = this.inner.clone();
    copy.outer = this.outer.clone();
    return copy;
  }
  /** Zeroes both contexts (and with them every trace of the key); any later use throws. */
  destroy() {
    this.inner.destroy();
    this.outer.destroy();
  }
};

// src/sha224.ts
function verify(message, expectedHash) {
  if (typeof expectedHash !== "string") throw new TypeError("expectedHash must be a string");
  const actual = SHA224Class.hash(message);
  let diff = expectedHash.length ^ 56;
  for (let i = 0; i < 56; i++) {
    const c = expectedHash.charCodeAt(i);
    diff |= actual.charCodeAt(i) ^ (c > 64 && c < 71 ? c + 32 : c);
  }
  return !diff;
}
var hmac = Object.assign(
  (key, message, encoding) => new HmacSHA224(key).update(message).digest(encoding),
  { create: (key) => new HmacSHA224(key) }
);
var SHA224 = Object.assign(
  (message, encoding) => SHA224Class.hash(message, encoding),
  { hash: SHA224Class.hash, verify, hmac, SHA224Class }
);
var sha224 = SHA224;
var sha224_default = SHA224;
export {
  HmacSHA224,
  SHA224,
  SHA224Class,
  sha224_default as default,
  sha224
};
