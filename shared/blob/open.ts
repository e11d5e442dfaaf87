/**
 * The blob store from configuration: S3 when S3_ENDPOINT/S3_BUCKET are set, otherwise
 * DATA_DIR/blobs (every node must share it). Its own module so a worker, which needs only this,
 * loads no SQL driver or limiter with it (test/deploy/bundle-imports.test.ts).
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { LocalDiskBlobStore } from './local-disk.js';
import type { BlobStore } from './types.js';

/** The AWS SDK is imported only when used: it adds ~10 MB of RSS to embedded mode otherwise. */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (config.s3) {
    const { S3BlobStore } = await import('./s3.js');
    return new S3BlobStore({ ...config.s3, forcePathStyle: true });
  }
  return new LocalDiskBlobStore(path.join(config.dataDir, 'blobs'));
}

export const blobRetentionMs = (config: Config): number => config.BLOB_RETENTION_SECONDS * 1000;
