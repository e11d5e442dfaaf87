/**
 * Builds the engines behind the small interfaces from configuration: embedded (SQLite, local
 * disk, in-process queue) or distributed (PostgreSQL, S3, BullMQ on Redis). The one place the
 * two modes differ.
 */
import path from 'node:path';
import { LocalDiskBlobStore } from './blob/local-disk.js';
import type { BlobStore } from './blob/types.js';
import type { Config } from './config.js';
import { databaseOptionsFromConfig } from './store/database.js';
import { createStore } from './store/kysely-store.js';
import type { AccountStore } from './store/types.js';

export function openAccountStore(config: Config): Promise<AccountStore> {
  return createStore(databaseOptionsFromConfig(config));
}

/**
 * S3 when S3_ENDPOINT/S3_BUCKET are set; otherwise DATA_DIR/blobs (every node must share it).
 * The AWS SDK is imported only when used: it adds ~10 MB of RSS to embedded mode otherwise.
 */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (config.s3) {
    const { S3BlobStore } = await import('./blob/s3.js');
    return new S3BlobStore({ ...config.s3, forcePathStyle: true });
  }
  return new LocalDiskBlobStore(path.join(config.dataDir, 'blobs'));
}

export const retentionMs = (config: Config): number => config.JOB_RETENTION_SECONDS * 1000;
export const blobRetentionMs = (config: Config): number => config.BLOB_RETENTION_SECONDS * 1000;
