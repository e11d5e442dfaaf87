import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { BlobRef } from '../jobs/contracts.js';
import { ByteLimit } from './byte-limit.js';
import type { BlobStore, PutOptions } from './types.js';

/** Reads of ≥ 1 MiB keep the per-chunk overhead of hashing negligible (issue 3 §4). */
export const READ_CHUNK_BYTES = 1024 * 1024;
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._/-]*$/;

/** Embedded mode's blob store: files under DATA_DIR/blobs, written to a temp name then renamed. */
export class LocalDiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').includes('..')) throw new ServiceError('INVALID_INPUT', { details: 'bad blob key' });
    return path.join(this.root, key);
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<BlobRef> {
    const finalPath = this.pathOf(key);
    const tempPath = `${finalPath}.${randomUUID()}.part`;
    await mkdir(path.dirname(finalPath), { recursive: true });
    const limit = new ByteLimit(options.maxBytes);
    try {
      await pipeline(source, limit, createWriteStream(tempPath));
      await rename(tempPath, finalPath);
    } catch (err) {
      await rm(tempPath, { force: true });
      throw err;
    }
    return { key, size: limit.bytes };
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

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async close(): Promise<void> {}
}
