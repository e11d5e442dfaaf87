/**
 * The bytes of an item line in the text the API node writes for it, `JSON.stringify({ id, data,
 * encoding })` (api/operations/bulk.ts): `{"id":"…","data":"…","encoding":"…"}`. The API node reads
 * a submitted line in place when it is already that text, and a worker reads a chunk's lines the
 * same way (docs/decisions.md "Bulk jobs"); both match these pieces byte by byte.
 */
import type { ChunkInputLine } from './model.js';

export type ItemEncoding = NonNullable<ChunkInputLine['encoding']>;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const CLOSE_BRACE = 0x7d;

export const ID_OPEN = Buffer.from('{"id":"', 'latin1');
export const DATA_OPEN = Buffer.from('","data":"', 'latin1');
export const ENCODING_OPEN = Buffer.from('","encoding":"', 'latin1');
const ENCODINGS = [
  ['utf8', Buffer.from('utf8', 'latin1')],
  ['hex', Buffer.from('hex', 'latin1')],
  ['base64', Buffer.from('base64', 'latin1')],
] as const;

/** Whether `input[at, end)` starts with `expected`. */
export function matches(input: Buffer, at: number, end: number, expected: Buffer): boolean {
  if (end - at < expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (input[at + i] !== expected[i]) return false;
  return true;
}

/** The encoding whose name is exactly `input[start, end)`, if any. */
export function encodingNamed(input: Buffer, start: number, end: number): ItemEncoding | undefined {
  for (const [name, bytes] of ENCODINGS) if (end - start === bytes.length && matches(input, start, end, bytes)) return name;
  return undefined;
}
