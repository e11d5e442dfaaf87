import type { Readable } from 'node:stream';
import type { BlobRef } from '../jobs/contracts.js';

export interface PutOptions {
  /** Refuse (FILE_TOO_LARGE) the moment the byte count passes this, and keep nothing. */
  maxBytes: number;
}

/** One stored object as a listing names it. */
export interface StoredBlob {
  key: string;
  /** Epoch milliseconds of the object's last write, by the store's clock. */
  lastModified: number;
}

/** Listings come in pages of at most this many objects (S3 ListObjectsV2's own maximum). */
export const LIST_PAGE_SIZE = 1000;

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
  /**
   * The stored objects whose key starts with `prefix`, in pages of at most LIST_PAGE_SIZE, read
   * one page at a time (objects may be deleted between pages). Only keys `delete` accepts are
   * listed; uploads still in progress are not.
   */
  list(prefix: string): AsyncIterable<StoredBlob[]>;
  /**
   * Aborts the unfinished uploads under `prefix` (S3 multipart uploads, local `.part` files) that
   * have had no activity since `idleSince` (epoch ms): those of a node that died mid-upload.
   * Resolves with how many were aborted.
   */
  abortStaleUploads(prefix: string, idleSince: number): Promise<number>;
  /** Throws if the store does not answer (readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What an upload is received into: the blob store, or a sink that keeps nothing (api/uploads/digest-sink.ts). */
export type BlobSink = Pick<BlobStore, 'put' | 'delete'>;
