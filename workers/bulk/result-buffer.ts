/**
 * A chunk's result part written into one growing buffer: a hash line is assembled from its
 * pieces (the id's bytes copied from the input, the hex digest, the size's digits), so a million
 * lines make no strings of their own and the part is never re-encoded as a whole.
 */

const HASH_LINE_ID = Buffer.from('{"id":"', 'latin1');
const HASH_LINE_HASH = Buffer.from('","hash":"', 'latin1');
const HASH_LINE_BYTES = Buffer.from('","bytes":', 'latin1');
const HASH_LINE_END = Buffer.from('}\n', 'latin1');
/** The fixed part of a hash line and its longest digest and size (hex of 28 bytes, a safe integer). */
const HASH_LINE_MAX_FIXED = HASH_LINE_ID.length + HASH_LINE_HASH.length + HASH_LINE_BYTES.length + HASH_LINE_END.length + 56 + 16;

export class ResultBuffer {
  private buffer: Buffer;
  private length = 0;

  /** `storage`: where the part is written, replaced by a larger buffer if it does not fit. */
  constructor(storage: Buffer) {
    this.buffer = storage;
  }

  /** The buffer written into (`storage`, or the one that replaced it): for the caller's pool. */
  get storage(): Buffer {
    return this.buffer;
  }

  /** `{"id":"<id>","hash":"<hex>","bytes":<n>}\n`, the id given as its JSON string's bytes without quotes. */
  hashLine(idSource: Buffer, idStart: number, idEnd: number, hex: string, bytes: number): void {
    this.reserve(idEnd - idStart + HASH_LINE_MAX_FIXED);
    const out = this.buffer;
    let at = this.put(HASH_LINE_ID, this.length);
    for (let i = idStart; i < idEnd; i++) out[at++] = idSource[i]!;
    at = this.put(HASH_LINE_HASH, at);
    at += out.write(hex, at, 'latin1');
    at = this.put(HASH_LINE_BYTES, at);
    at = writeDigits(out, at, bytes);
    this.length = this.put(HASH_LINE_END, at);
  }

  /** A line already rendered as text (its newline included). */
  text(line: string): void {
    this.reserve(Buffer.byteLength(line, 'utf8'));
    this.length += this.buffer.write(line, this.length, 'utf8');
  }

  /** The part so far (a view: valid until the next write). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private put(piece: Buffer, at: number): number {
    const out = this.buffer;
    for (let i = 0; i < piece.length; i++) out[at + i] = piece[i]!;
    return at + piece.length;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes, 1024));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** The decimal digits of a non-negative safe integer, as `String(n)` writes them. */
function writeDigits(out: Buffer, at: number, n: number): number {
  if (n < 10) {
    out[at] = 0x30 + n;
    return at + 1;
  }
  let digits = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 10)) digits++;
  for (let i = at + digits - 1, rest = n; i >= at; i--, rest = Math.floor(rest / 10)) out[i] = 0x30 + (rest % 10);
  return at + digits;
}
