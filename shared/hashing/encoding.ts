import { invalidInput } from '../errors.js';

/** Input encodings of the spec (SPEC "v2 /hash", "v1 Set A /hash"): utf8 is the default. */
export const INPUT_ENCODINGS = ['utf8', 'hex', 'base64'] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/** Output formats; `binary` is returned base64-encoded, since JSON cannot carry raw bytes (SPEC). */
export const OUTPUT_FORMATS = ['hex', 'base64', 'binary'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
// RFC 4648 §4 alphabet with canonical padding; §5 (url-safe) alphabet is accepted too, since
// clients commonly send it, but never a mix of padding errors or stray characters.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Decode a request string to bytes. Node's own decoders silently drop malformed characters
 * (Buffer.from('zz', 'hex') is empty), which would hash something other than what the caller
 * sent; so the text is checked first and refused with INVALID_INPUT naming the field.
 */
export function decodeInput(data: string, encoding: InputEncoding, field = 'data'): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(data, 'utf8');
    case 'hex':
      if (!HEX.test(data)) throw invalidInput(field, `${field} is not valid hex (even number of 0-9a-f characters)`);
      return Buffer.from(data, 'hex');
    case 'base64':
      if (BASE64.test(data)) return Buffer.from(data, 'base64');
      if (BASE64URL.test(data) && data.length % 4 !== 1) return Buffer.from(data, 'base64url');
      throw invalidInput(field, `${field} is not valid base64`);
  }
}

/** Length in bytes of `data` once decoded, without allocating (for inline-vs-queue decisions). */
export function decodedLength(data: string, encoding: InputEncoding): number {
  switch (encoding) {
    case 'utf8':
      return Buffer.byteLength(data, 'utf8');
    case 'hex':
      return data.length >>> 1;
    case 'base64':
      return Buffer.byteLength(data, 'base64');
  }
}

export function encodeDigest(digest: Uint8Array, format: OutputFormat): string {
  const buf = Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);
  return format === 'hex' ? buf.toString('hex') : buf.toString('base64');
}

/** Check that `data` decodes under `encoding` without allocating the bytes (before enqueueing). */
export function assertDecodable(data: string, encoding: InputEncoding, field = 'data'): void {
  if (encoding === 'hex' && !HEX.test(data)) throw invalidInput(field, `${field} is not valid hex (even number of 0-9a-f characters)`);
  if (encoding === 'base64' && !BASE64.test(data) && !(BASE64URL.test(data) && data.length % 4 !== 1)) {
    throw invalidInput(field, `${field} is not valid base64`);
  }
}
