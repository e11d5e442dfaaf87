import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { BlobRef } from '../jobs/contracts.js';
import { walkFiles } from './disk-walk.js';
import { BatchedFileSink } from './write-batches.js';
import { LIST_PAGE_SIZE, type BlobStore, type PutOptions, type StoredBlob } from './types.js';

/** Reads of ≥ 1 MiB keep the per-chunk overhead of hashing negligible. */
export const READ_CHUNK_BYTES = 1024 * 1024;
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._/-]*$/;
/** An upload in progress is written to `<key>.<uuid>.part`, then renamed to its key. */
const PART_FILE = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

/** Uploaded bytes are the callers' data: readable by this service's user only. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Embedded mode's blob store: files under DATA_DIR/blobs (directories 0700, files 0600), written to
 * a temp name then renamed.
 */
export class LocalDiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new ServiceError('INVALID_INPUT', { details: 'bad blob key' });
    return path.join(this.root, key);
  }

  /** The directory part of a listing prefix ('' or ending in '/'), checked like a key. */
  private directoryOf(prefix: string): string {
    const directory = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    if (directory !== '') this.pathOf(directory.slice(0, -1));
    return directory;
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<BlobRef> {
    const finalPath = this.pathOf(key);
    const tempPath = `${finalPath}.${randomUUID()}.part`;
    // The source may fail (its client gone) while the directory is being made: keep that error
    // from going unhandled until pipeline takes the stream over and reports it.
    const holdErrors = (): void => undefined;
    source.on('error', holdErrors);
    let sink: BatchedFileSink | undefined;
    try {
      await mkdir(path.dirname(finalPath), { recursive: true, mode: DIR_MODE });
      sink = new BatchedFileSink(tempPath, 'wx', FILE_MODE, { maxBytes: options.maxBytes });
      await pipeline(source, sink);
      await rename(tempPath, finalPath);
    } catch (err) {
      source.destroy();
      // The file may still be opening when the pipeline fails; removed before the stream closes,
      // the open would create it again afterwards and leave it behind.
      if (sink !== undefined && !sink.closed) await once(sink, 'close').catch(() => undefined);
      await rm(tempPath, { force: true });
      throw err;
    } finally {
      source.off('error', holdErrors);
    }
    return { key, size: sink.bytes };
  }

  async get(key: string): Promise<Readable> {
    try {
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ServiceError('NOT_FOUND', { details: 'blob not found', cause: err });
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Files under the prefix, dated by their mtime: a blob's file is renamed into place once written, so that is when it was stored. */
  async *list(prefix: string): AsyncGenerator<StoredBlob[]> {
    let page: StoredBlob[] = [];
    for await (const file of walkFiles(this.root, this.directoryOf(prefix))) {
      const key = file.relative;
      if (!key.startsWith(prefix) || PART_FILE.test(key) || !isSafeKey(key)) continue;
      page.push({ key, lastModified: file.mtimeMs });
      if (page.length === LIST_PAGE_SIZE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }

  /**
   * Removes `.part` files not written to since `idleSince`. A live upload writes its file as
   * bytes arrive, and one whose client goes silent is ended by BODY_IDLE_TIMEOUT_MS, so an old
   * mtime means the process that wrote it died.
   */
  async abortStaleUploads(prefix: string, idleSince: number): Promise<number> {
    let removed = 0;
    for await (const file of walkFiles(this.root, this.directoryOf(prefix))) {
      if (!file.relative.startsWith(prefix) || !PART_FILE.test(file.relative) || file.mtimeMs >= idleSince) continue;
      await rm(file.path, { force: true });
      removed++;
    }
    return removed;
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: DIR_MODE });
  }

  async close(): Promise<void> {}
}

function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.split('/').includes('..');
}
