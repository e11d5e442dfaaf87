/**
 * Bulk jobs (docs/api.md "Bulk jobs"): one job of up to millions of items, split into chunks that
 * run as tasks of their own on the `bulk` queue. Only object keys travel in a task: a chunk's
 * input and its result part live in the blob store under `bulk/<id>/`.
 */
import type { Plan } from '../store/types.js';

export const BULK_SOURCES = ['items', 'urls', 's3'] as const;
export type BulkSource = (typeof BULK_SOURCES)[number];

/** receiving: the API node is still writing its chunks; running: chunks queued or running. */
export type BulkState = 'receiving' | 'running' | 'completed' | 'cancelled';

export interface BulkRecord {
  id: string;
  accountId: string;
  source: BulkSource;
  state: BulkState;
  /** Items in the job (known once received). */
  total: number;
  chunks: number;
  chunksDone: number;
  /** Items hashed, items that failed, bytes hashed: summed over finished chunks. */
  done: number;
  failed: number;
  bytes: number;
  /** Epoch milliseconds. */
  createdAt: number;
  /** When the chunks were queued. */
  startedAt?: number;
  finishedAt?: number;
}

/** What a finished chunk adds to its job. */
export interface ChunkSummary {
  done: number;
  failed: number;
  bytes: number;
  /** Bytes of the result part written (0: none): the results' Range answers add them up (api/v2/bulk-results.ts). */
  partBytes: number;
}

/** Where an `s3` job's objects are read from; `sealed` is the credentials, sealed (shared/bulk/seal.ts). */
export interface S3SourceRef {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  sealed: string;
}

/** One chunk as it travels on the queue: keys and settings only, never items or credentials in the clear. */
export interface ChunkTask {
  bulkId: string;
  accountId: string;
  index: number;
  source: BulkSource;
  /** Items in this chunk: what counts as failed if the chunk runs out of attempts. */
  items?: number;
  /** URL jobs: the fetch deadline and the plan's size limit per URL. */
  url?: { timeoutMs: number; maxBytes: number };
  s3?: S3SourceRef;
}

/** One input line of a chunk: items carry data; URL and S3 lines carry only their id (the URL, the key). */
export interface ChunkInputLine {
  id: string;
  data?: string;
  encoding?: 'utf8' | 'hex' | 'base64';
}

/** One result line (docs/api.md "Bulk jobs"): `hash` and `bytes`, or `error`. */
export type ResultLine =
  { id: string; hash: string; bytes: number } | { id: string; error: { code: string; message: string; details?: string } };

export const BULK_BLOB_PREFIX = 'bulk/';

/** Chunk indexes are zero-padded so a listing sorts in input order. */
const part = (index: number): string => String(index).padStart(7, '0');
export const chunkInputKey = (bulkId: string, index: number): string => `${BULK_BLOB_PREFIX}${bulkId}/in/${part(index)}.ndjson`;
export const chunkOutputKey = (bulkId: string, index: number): string => `${BULK_BLOB_PREFIX}${bulkId}/out/${part(index)}.ndjson`;
export const bulkPrefix = (bulkId: string): string => `${BULK_BLOB_PREFIX}${bulkId}/`;

/** The bulk id a stored object belongs to, or undefined for a key of another shape. */
export function bulkIdOfKey(key: string): string | undefined {
  if (!key.startsWith(BULK_BLOB_PREFIX)) return undefined;
  const id = key.slice(BULK_BLOB_PREFIX.length).split('/')[0];
  return id === undefined || id === '' ? undefined : id;
}

/** Per plan (docs/decisions.md "Bulk jobs"): items and bytes of one job, jobs not yet finished at once. */
export interface BulkPlanLimits {
  maxItems: number;
  maxBytes: number;
  maxActive: number;
}

const MiB = 1024 * 1024;
export const BULK_PLAN_LIMITS: { readonly [P in Plan]: BulkPlanLimits } = {
  free: { maxItems: 10_000, maxBytes: 10 * MiB, maxActive: 1 },
  basic: { maxItems: 100_000, maxBytes: 100 * MiB, maxActive: 2 },
  pro: { maxItems: 1_000_000, maxBytes: 1024 * MiB, maxActive: 4 },
  enterprise: { maxItems: 10_000_000, maxBytes: 10 * 1024 * MiB, maxActive: 8 },
};

/** URL jobs: at most this many URLs in one job, whatever the plan (each is a fetch). */
export const BULK_MAX_URLS = 10_000;
/** URL jobs: URLs of one host fetched at once by one chunk, and URLs fetched at once by one chunk. */
export const URL_PER_HOST_CONCURRENCY = 2;
export const URL_CHUNK_CONCURRENCY = 8;
/** Chunks of URL jobs are small: a fetch costs far more than a hash. */
export const URL_CHUNK_ITEMS = 100;
/** S3 jobs: objects read at once by one chunk. */
export const S3_CHUNK_CONCURRENCY = 8;
