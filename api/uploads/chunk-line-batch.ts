/**
 * The chunk lines made from one piece of a bulk body, in one buffer with where each line ends:
 * what `ChunkWriter.addLines` cuts into chunks. Each batch gets a buffer of its own, since the
 * blob store may still hold the last one's bytes.
 */
const FIRST_BYTES = 64 * 1024;

export class ChunkLineBatch {
  private bytes = Buffer.allocUnsafe(FIRST_BYTES);
  private length = 0;
  private ends: number[] = [];

  /** A line copied from `source[start, end)`, then `suffix` (latin1 text), then its newline. */
  copy(source: Buffer, start: number, end: number, suffix = ''): void {
    this.reserve(end - start + suffix.length + 1);
    this.length += source.copy(this.bytes, this.length, start, end);
    if (suffix.length > 0) this.length += this.bytes.write(suffix, this.length, 'latin1');
    this.newline();
  }

  /** A line of text, then its newline. */
  text(line: string): void {
    this.reserve(Buffer.byteLength(line, 'utf8') + 1);
    this.length += this.bytes.write(line, this.length, 'utf8');
    this.newline();
  }

  /** The lines so far (bytes and line ends); the batch starts empty again. */
  take(): { bytes: Buffer; ends: number[] } {
    const taken = { bytes: this.bytes.subarray(0, this.length), ends: this.ends };
    this.bytes = Buffer.allocUnsafe(Math.max(FIRST_BYTES, this.length));
    this.length = 0;
    this.ends = [];
    return taken;
  }

  private newline(): void {
    this.bytes[this.length++] = 0x0a;
    this.ends.push(this.length);
  }

  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.length + more));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
