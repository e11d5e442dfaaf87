import type { Readable } from 'node:stream';
import type { BlobRef } from '../jobs/contracts.js';

export interface PutOptions {
  /** Refuse (FILE_TOO_LARGE) the moment the byte count passes this, and keep nothing. */
  maxBytes: number;
}

/**
 * Where file and stream bytes live between the API node that received them and the worker that
 * hashes them. Local disk in embedded mode; S3/MinIO in distributed mode.
 */
export interface BlobStore {
  /** Stream `source` into the store under `key`, counting bytes. On any failure nothing is left behind. */
  put(key: string, source: Readable, options: PutOptions): Promise<BlobRef>;
  /** Read a stored object as a stream of large chunks. NOT_FOUND if absent. */
  get(key: string): Promise<Readable>;
  /** Idempotent: deleting an absent key succeeds. */
  delete(key: string): Promise<void>;
  /** Throws if the store does not answer (readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
