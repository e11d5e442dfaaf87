/**
 * An item line of a chunk's input read in place, without JSON.parse: the API node writes each
 * item as `JSON.stringify({ id, data, encoding })` (api/operations/bulk.ts), so almost every line
 * is exactly `{"id":"…","data":"…","encoding":"…"}`. When both strings hold no escape (no `\`)
 * and no control character, their UTF-8 bytes between the quotes are the strings themselves: the
 * data's bytes are what node:crypto hashes for the utf8 string, and the id's bytes are what
 * JSON.stringify writes for it. Any other line (an escape, another key order, a field more) is
 * not this shape, and the caller JSON.parses it as before (docs/decisions.md "Bulk jobs").
 */
import {
  BACKSLASH,
  CLOSE_BRACE,
  DATA_OPEN,
  ENCODING_OPEN,
  encodingNamed,
  ID_OPEN,
  matches,
  QUOTE,
  type ItemEncoding,
} from '../../shared/bulk/item-line-bytes.js';

/** Where the fields of the last line scanned lie in the input (one object, reused for every line). */
export class ItemCursor {
  idStart = 0;
  idEnd = 0;
  dataStart = 0;
  dataEnd = 0;
  encoding: ItemEncoding = 'utf8';

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
    const encoding = encodingNamed(input, encodingStart, encodingEnd);
    if (encoding === undefined) return false;
    this.encoding = encoding;
    return true;
  }
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
