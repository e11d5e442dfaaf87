/**
 * An NDJSON item line read in place when it is already the exact text the chunk keeps: the chunk
 * line of an item is `JSON.stringify({ id, data, encoding })` (api/operations/bulk.ts), and a
 * line `{"id":"…","data":"…","encoding":"…"}` (or without `encoding`) whose strings hold no `\`,
 * no control character and only well-formed UTF-8 is that text already (JSON.stringify escapes
 * nothing else). Any other line (an escape, another key order, a field more, a space, a CR, an
 * id that may be too long) is not this shape and the caller parses it with JSON.parse as before
 * (docs/decisions.md "Bulk jobs").
 */
import { isUtf8 } from 'node:buffer';
import {
  BACKSLASH,
  CLOSE_BRACE,
  DATA_OPEN,
  ENCODING_OPEN,
  encodingNamed,
  ID_OPEN,
  matches,
  QUOTE,
} from '../../shared/bulk/item-line-bytes.js';

const EQUALS = 0x3d;
const MAX_ID_CHARACTERS = 256;

/** What the last line scanned holds (one object, reused for every line). */
export class PlainItemLine {
  /** The data's decoded length, as `decodedLength` counts it (the plan's byte limit). */
  bytes = 0;
  /** Whether the line names its encoding; without it the chunk line gains `,"encoding":"utf8"`. */
  hasEncoding = false;
  private ascii = true;

  /** Reads `input[start, end)`; false when the line is not the plain shape above. */
  scan(input: Buffer, start: number, end: number): boolean {
    if (!matches(input, start, end, ID_OPEN)) return false;
    const idStart = start + ID_OPEN.length;
    const idEnd = this.plainStringEnd(input, idStart, end);
    // An id of more than 256 bytes may still be 256 characters: JSON.parse decides.
    if (idEnd <= idStart || idEnd - idStart > MAX_ID_CHARACTERS || !matches(input, idEnd, end, DATA_OPEN)) return false;
    const dataStart = idEnd + DATA_OPEN.length;
    const dataEnd = this.plainStringEnd(input, dataStart, end);
    if (dataEnd < 0) return false;
    if (dataEnd + 2 === end && input[dataEnd + 1] === CLOSE_BRACE) {
      this.hasEncoding = false;
      this.bytes = dataEnd - dataStart;
      return true;
    }
    if (!matches(input, dataEnd, end, ENCODING_OPEN)) return false;
    const encodingStart = dataEnd + ENCODING_OPEN.length;
    if (input[end - 2] !== QUOTE || input[end - 1] !== CLOSE_BRACE) return false;
    const encoding = encodingNamed(input, encodingStart, end - 2);
    if (encoding === undefined) return false;
    this.hasEncoding = true;
    if (encoding === 'utf8') this.bytes = dataEnd - dataStart;
    // hex and base64 count characters: bytes are characters only in ASCII.
    else if (!this.ascii) return false;
    else if (encoding === 'hex') this.bytes = (dataEnd - dataStart) >>> 1;
    else this.bytes = base64Length(input, dataStart, dataEnd);
    return true;
  }

  /**
   * The closing quote of a string starting at `from`, or -1 if an escape or control character
   * comes first or its bytes are not well-formed UTF-8; `ascii` tells whether all were below 0x80.
   */
  private plainStringEnd(input: Buffer, from: number, end: number): number {
    let ascii = true;
    for (let at = from; at < end; at++) {
      const byte = input[at]!;
      if (byte === QUOTE) {
        this.ascii = ascii;
        return ascii || isUtf8(input.subarray(from, at)) ? at : -1;
      }
      if (byte === BACKSLASH || byte < 0x20) return -1;
      if (byte >= 0x80) ascii = false;
    }
    return -1;
  }
}

/** `Buffer.byteLength(text, 'base64')` of ASCII text: three bytes per four characters, up to two `=` at the end not counted. */
function base64Length(input: Buffer, start: number, end: number): number {
  let length = end - start;
  if (length > 0 && input[start + length - 1] === EQUALS) length--;
  if (length > 1 && input[start + length - 1] === EQUALS) length--;
  return (length * 3) >>> 2;
}
