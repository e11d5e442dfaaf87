/**
 * The blob store from configuration: S3 when S3_ENDPOINT/S3_BUCKET are set, otherwise
 * DATA_DIR/blobs (every node must share it). Its own module so a worker, which needs only this,
 * loads no SQL driver or limiter with it (test/deploy/bundle-imports.test.ts).
 */
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { LocalDiskBlobStore } from './local-disk.js';
import type { BlobStore } from './types.js';

/** Logged by a distributed node (REDIS_URL set) that stores blobs on its own disk. */
export const LOCAL_BLOBS_WARNING =
  'blobs are stored in DATA_DIR/blobs: async uploads work only if every API node and worker shares this directory; set S3_ENDPOINT and S3_BUCKET otherwise';

/**
 * The AWS SDK is imported only when used: it adds ~10 MB of RSS to embedded mode otherwise. A
 * distributed node given `logger` warns at start when it falls back to local disk: an upload
 * stored by one API node is read by whichever worker takes its job (README "Running distributed").
 */
export async function openBlobStore(config: Config, logger?: Logger): Promise<BlobStore> {
  if (config.s3) {
    const { S3BlobStore } = await import('./s3.js');
    return new S3BlobStore({ ...config.s3, forcePathStyle: true });
  }
  const dir = path.join(config.dataDir, 'blobs');
  if (config.mode === 'distributed') logger?.warn({ dir }, LOCAL_BLOBS_WARNING);
  return new LocalDiskBlobStore(dir);
}

export const blobRetentionMs = (config: Config): number => config.BLOB_RETENTION_SECONDS * 1000;
