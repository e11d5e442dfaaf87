/**
 * Input normalisation and output encodings for the client-side SHA-224 library. Web-platform
 * globals only (TextEncoder), no Node built-ins.
 */
import type { Encoding } from './types.js';

/**
 * The bytes of a non-string message, without copying when it already is bytes. Typed arrays are
 * recognised with ArrayBuffer.isView and buffers by their tag, so values from another realm
 * (an iframe, a worker's transfer, node:vm) are accepted as well.
 */
export function toBytes(message: unknown, name: string): Uint8Array {
  if (message instanceof Uint8Array) return message;
  if (ArrayBuffer.isView(message)) return new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
  // '[object ArrayBuffer]' or '[object SharedArrayBuffer]'
  if (Object.prototype.toString.call(message).endsWith('ArrayBuffer]')) return new Uint8Array(message as ArrayBuffer);
  if (Array.isArray(message)) {
    const bytes = new Uint8Array(message.length);
    for (let i = 0; i < bytes.length; i++) {
      const v: unknown = message[i];
      // An element that is not a byte makes the whole argument the wrong type, hence TypeError.
      if (typeof v !== 'number' || v !== (v & 255)) throw new TypeError(`${name}[${i}] must be an integer 0..255`);
      bytes[i] = v;
    }
    return bytes;
  }
  throw new TypeError(`${name} must be a string, ArrayBuffer, typed array or byte array`);
}

let encoder: TextEncoder | undefined;

/** TextEncoder is only constructed once a non-ASCII string is seen. */
export function utf8(): TextEncoder {
  return (encoder ||= new TextEncoder());
}

/**
 * Writes the UTF-8 encoding of s into out, which must hold 3 × s.length bytes, and returns the
 * byte count. ASCII is copied by a charCodeAt loop, which spares short strings the cost of an
 * encodeInto call and a substring; from the first non-ASCII character on,
 * TextEncoder itself encodes the rest, so lone surrogates become U+FFFD exactly as it does.
 */
export function encodeString(s: string, out: Uint8Array): number {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return i + utf8().encodeInto(s.slice(i), out.subarray(i)).written;
    out[i] = c;
  }
  return n;
}

/** HEX[b] is the two lowercase hex digits of the byte b. */
const HEX: string[] = [];
for (let i = 256; i < 512; i++) HEX.push(i.toString(16).slice(1)); // '100'..'1ff' → '00'..'ff'

/** Throws unless encoding is one of the three formats; checked before any state changes. */
export function checkEncoding(encoding: unknown): asserts encoding is Encoding {
  if (encoding !== 'hex' && encoding !== 'base64' && encoding !== 'bytes') {
    throw new RangeError(`encoding must be 'hex', 'base64' or 'bytes'`);
  }
}

/** The digest: the first seven words of H (FIPS 180-4 §6.3), big-endian, in the given encoding. */
export function output(H: Int32Array, encoding: Encoding): string | Uint8Array {
  if (encoding === 'hex') {
    let hex = '';
    for (let i = 0; i < 7; i++) {
      const w = H[i]!;
      hex += HEX[w >>> 24]! + HEX[(w >>> 16) & 255]! + HEX[(w >>> 8) & 255]! + HEX[w & 255]!;
    }
    return hex;
  }
  const bytes = new Uint8Array(28);
  for (let i = 0; i < 28; i++) bytes[i] = H[i >> 2]! >>> (24 - 8 * (i & 3));
  // btoa is a global in browsers, workers, Node ≥ 16 and Deno.
  return encoding === 'bytes' ? bytes : btoa(String.fromCharCode(...bytes));
}
