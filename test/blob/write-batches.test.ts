import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BatchedFileSink } from '../../shared/blob/write-batches.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sha224d-write-batches-'));
const sha224 = (data: Uint8Array): string => createHash('sha224').update(data).digest('hex');

/** `data` as chunks of the given sizes, cycled, like a network body. */
function chunked(data: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

describe('BatchedFileSink', () => {
  it.each([
    ['empty', 0],
    ['under one batch', 1000],
    ['exactly one batch', 4096],
    ['several batches and a remainder', 4096 * 5 + 123],
  ])('writes every byte in order: %s', async (_name, size) => {
    const data = randomBytes(size);
    const file = path.join(dir, `out-${size}`);
    const sink = new BatchedFileSink(file, 'wx', 0o600, { batchBytes: 4096 });
    await pipeline(chunked(data, [1, 700, 3000, 4096, 5000]), sink);
    const written = readFileSync(file);
    expect(written.length).toBe(size);
    expect(sha224(written)).toBe(sha224(data));
  });

  it('accepts chunks at once below a batch, and the file gets them in order', async () => {
    const file = path.join(dir, 'held');
    const sink = new BatchedFileSink(file, 'wx', 0o600, { batchBytes: 4096 });
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const more = sink.write(Buffer.alloc(1024, i));
      if (!more) {
        waits.push(i);
        await new Promise((resolve) => sink.once('drain', resolve));
      }
    }
    await new Promise<void>((resolve, reject) => sink.end((err?: Error | null) => (err ? reject(err) : resolve())));
    expect(readFileSync(file)).toEqual(Buffer.concat(Array.from({ length: 10 }, (_, i) => Buffer.alloc(1024, i))));
    // Writable's own highWaterMark (16 KiB) is never reached: chunks are accepted at once.
    expect(waits).toEqual([]);
  });

  it('counts the bytes, and refuses with FILE_TOO_LARGE the chunk that passes maxBytes, writing none of it', async () => {
    const file = path.join(dir, 'limited');
    const fits = new BatchedFileSink(path.join(dir, 'fits'), 'wx', 0o600, { maxBytes: 5000, batchBytes: 4096 });
    await pipeline(chunked(randomBytes(5000), [1000]), fits);
    expect(fits.bytes).toBe(5000);
    const sink = new BatchedFileSink(file, 'wx', 0o600, { maxBytes: 5000, batchBytes: 4096 });
    await expect(pipeline(chunked(randomBytes(6000), [1000]), sink)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(sink.bytes).toBe(5000);
    // The first five chunks went out as one batch (it passed 4096 bytes); the refused sixth never did.
    expect(readFileSync(file).length).toBe(5000);
  });

  it('fails like fs.WriteStream when the file exists (wx), and writes nothing', async () => {
    const file = path.join(dir, 'exists');
    writeFileSync(file, 'kept');
    const sink = new BatchedFileSink(file, 'wx', 0o600, { batchBytes: 4096 });
    await expect(pipeline(Readable.from([Buffer.from('new')]), sink)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(file, 'utf8')).toBe('kept');
  });

  it('a source that fails mid-way closes the file and reports its error', async () => {
    const file = path.join(dir, 'failed');
    const sink = new BatchedFileSink(file, 'wx', 0o600, { batchBytes: 4096 });
    const source = new Readable({
      read() {
        this.push(Buffer.alloc(3000));
        this.destroy(new Error('client gone'));
      },
    });
    await expect(pipeline(source, sink)).rejects.toThrow('client gone');
    // The file may still be opening when the pipeline fails; it closes once opened, which is what
    // LocalDiskBlobStore.put waits for before it removes its temp file.
    if (!sink.closed) await new Promise((resolve) => sink.once('close', resolve));
    expect(sink.destroyed).toBe(true);
    expect(existsSync(file)).toBe(true);
  });
});
