/**
 * Chunk-sized buffers kept from one chunk to the next: a chunk's input joined into one buffer and
 * its result part are about a megabyte each at the default 10,000 items. Allocated afresh for
 * every chunk, that external memory made V8 start a full (mark-compact) collection every couple
 * of chunks, over the whole heap the AWS SDK and BullMQ keep (docs/decisions.md "Bulk jobs").
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  /**
   * `keep`: buffers held between chunks at most (two per chunk running at once); `maxBytes`: a
   * larger one (a chunk of large items) is let go, so one such job does not pin its memory for
   * the worker's life.
   */
  constructor(
    private readonly keep: number,
    private readonly maxBytes: number,
  ) {}

  /** A buffer of at least `bytes` (its contents are old bytes: write before reading). */
  take(bytes: number): Buffer {
    const index = this.free.findIndex((buffer) => buffer.length >= bytes);
    if (index >= 0) return this.free.splice(index, 1)[0]!;
    // A quarter more than asked: the next chunk, a little longer, still fits.
    return Buffer.allocUnsafeSlow(bytes + (bytes >>> 2));
  }

  /** Hands `buffer` back once nothing reads it any more; beyond `keep`, the smallest is let go. */
  give(buffer: Buffer): void {
    if (buffer.length > this.maxBytes) return;
    this.free.push(buffer);
    if (this.free.length > this.keep) {
      this.free.sort((a, b) => b.length - a.length);
      this.free.length = this.keep;
    }
  }
}
