/**
 * Writes a bulk job's input into the blob store as it arrives, one object per chunk of
 * `chunkItems` lines, streamed (a chunk is never held whole in memory): what the chunks' tasks
 * name. On a refused or broken intake `abort` deletes what was written.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { BlobStore } from '../../shared/blob/types.js';
import { chunkInputKey } from '../../shared/bulk/model.js';

export class ChunkWriter {
  private current: { stream: PassThrough; stored: Promise<unknown>; lines: number } | undefined;
  private written = 0;
  total = 0;

  constructor(
    private readonly blobs: BlobStore,
    private readonly bulkId: string,
    private readonly chunkItems: number,
  ) {}

  get chunks(): number {
    return this.written + (this.current === undefined ? 0 : 1);
  }

  /** One input line, without its newline. */
  add(line: string): Promise<void> {
    const bytes = Buffer.from(`${line}\n`, 'utf8');
    return this.addLines(bytes, [bytes.length]);
  }

  /**
   * Lines already joined (`bytes`, each ending at its offset in `ends`, newline included): written
   * a chunk's share at a time, so a body's piece costs one write per chunk it reaches, not one per line.
   */
  async addLines(bytes: Buffer, ends: readonly number[]): Promise<void> {
    let from = 0;
    for (let line = 0; line < ends.length;) {
      const chunk = this.current ?? this.open();
      const taken = Math.min(ends.length - line, this.chunkItems - chunk.lines);
      line += taken;
      const to = ends[line - 1]!;
      this.total += taken;
      chunk.lines += taken;
      if (!chunk.stream.write(bytes.subarray(from, to))) await once(chunk.stream, 'drain');
      from = to;
      if (chunk.lines >= this.chunkItems) await this.seal();
    }
  }

  /** Every chunk stored: how many. */
  async finish(): Promise<number> {
    await this.seal();
    return this.written;
  }

  async abort(): Promise<void> {
    const open = this.current;
    this.current = undefined;
    if (open !== undefined) {
      open.stream.destroy(new Error('intake aborted'));
      await open.stored.catch(() => undefined);
    }
    const count = this.written + (open === undefined ? 0 : 1);
    await Promise.all(
      Array.from({ length: count }, (_, index) => this.blobs.delete(chunkInputKey(this.bulkId, index)).catch(() => undefined)),
    );
  }

  private open(): NonNullable<ChunkWriter['current']> {
    const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
    const key = chunkInputKey(this.bulkId, this.written);
    const stored = this.blobs.put(key, stream, { maxBytes: Number.MAX_SAFE_INTEGER });
    // A store that fails mid-chunk ends the intake: the next write or drain wait sees the error.
    stored.catch((err: unknown) => stream.destroy(err instanceof Error ? err : new Error(String(err))));
    this.current = { stream, stored, lines: 0 };
    return this.current;
  }

  private async seal(): Promise<void> {
    const chunk = this.current;
    if (chunk === undefined) return;
    chunk.stream.end();
    await chunk.stored;
    this.current = undefined;
    this.written++;
  }
}
