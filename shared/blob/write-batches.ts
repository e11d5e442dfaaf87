/**
 * A file written in batches (docs/decisions.md "Speed"). A large body arrives in chunks of up to
 * 64 KiB, and fs.WriteStream hands each to the thread pool as a write(2) of its own unless several
 * happen to be waiting: some 16,000 writes per GiB. This sink accepts chunks at once until a batch
 * is full, then writes the batch with one writev(2), without copying the chunks together; the
 * caller waits only for those writes, so at most one batch is held.
 *
 * It also counts the bytes and fails with FILE_TOO_LARGE the moment they pass `maxBytes`, before
 * they are written: a ByteLimit stream in front of it cost every chunk one more stream hop.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { fileTooLarge } from './byte-limit.js';

/** Bytes held before they are written. */
export const WRITE_BATCH_BYTES = 1024 * 1024;

export interface BatchedFileSinkOptions {
  /** Refuse (FILE_TOO_LARGE) the chunk that takes the count past this; nothing of it is written. */
  maxBytes?: number;
  batchBytes?: number;
}

export class BatchedFileSink extends Writable {
  /** Bytes accepted so far. */
  bytes = 0;
  private file: FileHandle | undefined;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private readonly maxBytes: number;
  private readonly batchBytes: number;

  constructor(
    private readonly filePath: string,
    private readonly flags: string,
    private readonly mode: number,
    options: BatchedFileSinkOptions = {},
  ) {
    super({ decodeStrings: true });
    this.maxBytes = options.maxBytes ?? Infinity;
    this.batchBytes = options.batchBytes ?? WRITE_BATCH_BYTES;
  }

  override _construct(done: (err?: Error | null) => void): void {
    open(this.filePath, this.flags, this.mode).then(
      (file) => {
        this.file = file;
        done();
      },
      (err: Error) => done(err),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.bytes + chunk.length > this.maxBytes) {
      done(fileTooLarge(this.maxBytes));
      return;
    }
    this.bytes += chunk.length;
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes < this.batchBytes) {
      done();
      return;
    }
    this.flushHeld().then(() => done(), done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.flushHeld().then(() => done(), done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.held = [];
    const file = this.file;
    this.file = undefined;
    if (file === undefined) {
      done(err);
      return;
    }
    file.close().then(
      () => done(err),
      (closeErr: Error) => done(err ?? closeErr),
    );
  }

  private async flushHeld(): Promise<void> {
    const file = this.file;
    if (file === undefined) throw new Error('the file is closed');
    const batch = this.held;
    this.held = [];
    this.heldBytes = 0;
    // writev may write less than asked (a full disk, a signal): what is left is written again.
    for (let pending = batch; pending.length > 0;) {
      const { bytesWritten } = await file.writev(pending);
      pending = rest(pending, bytesWritten);
    }
  }
}

/** `buffers` without their first `skip` bytes. */
function rest(buffers: Buffer[], skip: number): Buffer[] {
  const left: Buffer[] = [];
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    left.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return left;
}
