/**
 * Job contracts: what travels on the queue and what comes back. Payloads stay small: file and
 * stream jobs carry a blob reference, never bytes (BullMQ serialises a Buffer as a JSON array of
 * numbers, ~5× larger). Results carry digests as lowercase hex; the API renders them in the
 * caller's output format, so one result serves every response generation.
 */
import type { InputEncoding, OutputFormat } from '../hashing/encoding.js';

export interface BlobRef {
  key: string;
  size: number;
}

export interface HashJob {
  data: string;
  encoding: InputEncoding;
}

export interface HmacJob {
  data: string;
  encoding: InputEncoding;
  key: string;
  keyEncoding: InputEncoding;
}

export interface VerifyJob {
  data: string;
  encoding: InputEncoding;
  /** The caller's hex digest; compared in constant time by the worker. */
  expected: string;
}

export interface BatchItem {
  id: string;
  data: string;
  /** v1 /batch/verify: the caller's hex digest, compared in constant time by the job (its result's `valid`). */
  expected?: string;
}

/**
 * Batch, file and stream jobs may run asynchronously; `output` rides along so the
 * API can render a finished job's body exactly as the synchronous call would have. Workers ignore it.
 */
export interface BatchJob {
  items: BatchItem[];
  encoding: InputEncoding;
  parallel: boolean;
  output: OutputFormat;
}

export interface FileJob {
  blob: BlobRef;
  filename: string;
  chunkSize: number;
  output: OutputFormat;
  /** v1 /verify/file: the caller's hex digest, compared in constant time by the job (its result's `valid`). */
  expected?: string;
  /**
   * v2 verify on ingest (X-Expected-SHA224, tus metadata `sha224`): the digest the bytes must have;
   * a mismatch fails the job with HASH_MISMATCH, a match sets the result's `verified`.
   */
  mustMatch?: string;
  /**
   * A resumable upload's digest, computed by the API node as its bytes arrived (hash state kept
   * with the offset): the job reports it and reads nothing; `blob` names no stored object.
   */
  digested?: { digest: string; size: number };
  /**
   * Log the digest in the transparency log (docs/proving.md "Logging a job's digest"). Workers
   * ignore it: the API node that answers the job's result logs it (workers have no database).
   */
  log?: true;
}

export interface StreamJob {
  blob: BlobRef;
  chunkSize: number;
  output: OutputFormat;
  /** As FileJob's. */
  mustMatch?: string;
  /** As FileJob's. */
  log?: true;
}

export interface UrlJob {
  url: string;
  timeoutMs: number;
  maxBytes: number;
  /** As FileJob's. */
  log?: true;
}

export interface JobPayloads {
  hash: HashJob;
  hmac: HmacJob;
  verify: VerifyJob;
  batch: BatchJob;
  file: FileJob;
  stream: StreamJob;
  url: UrlJob;
}

export interface DigestResult {
  /** Lowercase hex SHA-224 (or HMAC-SHA-224) digest. */
  digest: string;
  /** Bytes hashed. */
  size: number;
}

export interface BatchItemResult {
  id: string;
  digest: string;
  size: number;
  /** Present when the item carried `expected`. */
  valid?: boolean;
}

export interface JobResults {
  hash: DigestResult;
  hmac: DigestResult;
  verify: DigestResult & { valid: boolean };
  batch: { results: BatchItemResult[] };
  /** `valid` is present when the job carried `expected`; `verified` when it carried `mustMatch` (and matched). */
  file: DigestResult & { valid?: boolean; verified?: true };
  stream: DigestResult & { verified?: true };
  url: DigestResult & { finalUrl: string };
}

export type JobKind = keyof JobPayloads;

/**
 * Queues by which operators size worker pools (one per kind of work). hmac and verify
 * are the same cost as hash and share its queue.
 */
export const QUEUE_NAMES = ['hash', 'batch', 'file', 'url', 'stream'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const QUEUE_OF_KIND: { readonly [K in JobKind]: QueueName } = {
  hash: 'hash',
  hmac: 'hash',
  verify: 'hash',
  batch: 'batch',
  file: 'file',
  stream: 'stream',
  url: 'url',
};

/** Kinds whose payload references a blob that must be deleted once the job has finished. */
export function blobOf(kind: JobKind, payload: JobPayloads[JobKind]): BlobRef | undefined {
  return kind === 'file' || kind === 'stream' ? (payload as FileJob | StreamJob).blob : undefined;
}
