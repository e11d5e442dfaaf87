/**
 * An item line of a chunk's input read in place, without JSON.parse: the API node writes each
 * item as `JSON.stringify({ id, data, encoding })` (api/operations/bulk.ts), so almost every line
 * is exactly `{"id":"…","data":"…","encoding":"…"}`. When both strings hold no escape (no `\`)
 * and no control character, their UTF-8 bytes between the quotes are the strings themselves: the
 * data's bytes are what node:crypto hashes for the utf8 string, and the id's bytes are what
 * JSON.stringify writes for it. Any other line (an escape, another key order, a field more) is
 * not this shape, and the caller JSON.parses it as before (docs/decisions.md "Bulk jobs").
 */
import type { ChunkInputLine } from '../../shared/bulk/model.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

const ID_OPEN = Buffer.from('{"id":"', 'latin1');
const DATA_OPEN = Buffer.from('","data":"', 'latin1');
const ENCODING_OPEN = Buffer.from('","encoding":"', 'latin1');
const ENCODINGS = [
  ['utf8', Buffer.from('utf8', 'latin1')],
  ['hex', Buffer.from('hex', 'latin1')],
  ['base64', Buffer.from('base64', 'latin1')],
] as const;

type Encoding = NonNullable<ChunkInputLine['encoding']>;

/** Where the fields of the last line scanned lie in the input (one object, reused for every line). */
export class ItemCursor {
  idStart = 0;
  idEnd = 0;
  dataStart = 0;
  dataEnd = 0;
  encoding: Encoding = 'utf8';

  /** Reads `input[start, end)`; false when the line is not the plain shape above. */
  scan(input: Buffer, start: number, end: number): boolean {
    if (!matches(input, start, end, ID_OPEN)) return false;
    this.idStart = start + ID_OPEN.length;
    this.idEnd = plainStringEnd(input, this.idStart, end);
    if (this.idEnd < 0 || !matches(input, this.idEnd, end, DATA_OPEN)) return false;
    this.dataStart = this.idEnd + DATA_OPEN.length;
    this.dataEnd = plainStringEnd(input, this.dataStart, end);
    if (this.dataEnd < 0) return false;
    // `"}`: a line with no encoding (utf8), as JSON.parse would read it.
    if (this.dataEnd + 2 === end && input[this.dataEnd + 1] === CLOSE_BRACE) {
      this.encoding = 'utf8';
      return true;
    }
    if (!matches(input, this.dataEnd, end, ENCODING_OPEN)) return false;
    const encodingStart = this.dataEnd + ENCODING_OPEN.length;
    const encodingEnd = plainStringEnd(input, encodingStart, end);
    if (encodingEnd < 0 || encodingEnd + 2 !== end || input[encodingEnd + 1] !== CLOSE_BRACE) return false;
    for (const [name, bytes] of ENCODINGS) {
      if (encodingEnd - encodingStart === bytes.length && matches(input, encodingStart, encodingEnd, bytes)) {
        this.encoding = name;
        return true;
      }
    }
    return false;
  }
}

/** Whether `input[at, end)` starts with `expected`. */
function matches(input: Buffer, at: number, end: number, expected: Buffer): boolean {
  if (end - at < expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (input[at + i] !== expected[i]) return false;
  return true;
}

/** The closing quote of a string starting at `from`, or -1 if an escape or control character comes first. */
function plainStringEnd(input: Buffer, from: number, end: number): number {
  for (let at = from; at < end; at++) {
    const byte = input[at]!;
    if (byte === QUOTE) return at;
    if (byte === BACKSLASH || byte < 0x20) return -1;
  }
  return -1;
}
