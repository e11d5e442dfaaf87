import { invalidInput } from '../errors.js';

/** Input encodings of the contract (docs/api.md "v2 endpoints", "v1 Set A"): utf8 is the default. */
export const INPUT_ENCODINGS = ['utf8', 'hex', 'base64'] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/** Output formats; `binary` is returned base64-encoded, since JSON cannot carry raw bytes (docs/api.md "v1 Set A"). */
export const OUTPUT_FORMATS = ['hex', 'base64', 'binary'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
// RFC 4648 §4 alphabet with canonical padding; §5 (url-safe) alphabet is accepted too, since
// clients commonly send it, but never a mix of padding errors or stray characters.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Why `data` does not decode under `encoding` (a message naming `field`), or undefined when it
 * does. Node's own decoders silently drop malformed characters (Buffer.from('zz', 'hex') is
 * empty), which would hash something other than what the caller sent; so the text is checked
 * first. The request schemas run this (api/schemas/common.ts) and workers run it again through
 * decodeInput, since a queued payload is input too.
 */
export function encodingProblem(data: string, encoding: InputEncoding, field = 'data'): string | undefined {
  switch (encoding) {
    case 'utf8':
      return undefined;
    case 'hex':
      return HEX.test(data) ? undefined : `${field} is not valid hex (even number of 0-9a-f characters)`;
    case 'base64':
      return BASE64.test(data) || isBase64Url(data) ? undefined : `${field} is not valid base64`;
  }
}

const isBase64Url = (data: string): boolean => BASE64URL.test(data) && data.length % 4 !== 1;

/** Decode a request string to bytes; INVALID_INPUT naming `field` if it does not decode (encodingProblem). */
export function decodeInput(data: string, encoding: InputEncoding, field = 'data'): Buffer {
  const problem = encodingProblem(data, encoding, field);
  if (problem !== undefined) throw invalidInput(field, problem);
  // Node's base64 decoder also reads the url-safe alphabet (RFC 4648 §5) that encodingProblem admits.
  return Buffer.from(data, encoding);
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
