/**
 * The in-memory core of hash, hmac, verify and batch jobs. Pure and synchronous: workers run it
 * for queued jobs and API nodes run it directly for inputs up to INLINE_MAX_BYTES,
 * so both paths give byte-identical results.
 */
import { decodeInput } from '../hashing/encoding.js';
import { hmacSha224 } from '../hashing/hmac.js';
import { sha224 } from '../hashing/sha224.js';
import { digestMatchesHex } from '../hashing/verify.js';
import type { BatchItemResult, BatchJob, FileJob, HashJob, StreamJob, HmacJob, JobPayloads, JobResults, VerifyJob } from './contracts.js';

export function computeHash(job: HashJob): JobResults['hash'] {
  const bytes = decodeInput(job.data, job.encoding);
  return { digest: sha224(bytes).toString('hex'), size: bytes.length };
}

export function computeHmac(job: HmacJob): JobResults['hmac'] {
  const key = decodeInput(job.key, job.keyEncoding, 'key');
  const bytes = decodeInput(job.data, job.encoding);
  return { digest: hmacSha224(key, bytes).toString('hex'), size: bytes.length };
}

export function computeVerify(job: VerifyJob): JobResults['verify'] {
  const bytes = decodeInput(job.data, job.encoding);
  const digest = sha224(bytes);
  return { digest: digest.toString('hex'), size: bytes.length, valid: digestMatchesHex(digest, job.expected) };
}

/**
 * Results keep request order; an item that fails to decode fails the batch naming its index. An
 * item with `expected` is verified here, in the job, like a verify job (never by a renderer).
 */
export function computeBatch(job: BatchJob): JobResults['batch'] {
  const results = job.items.map((item, index) => {
    const bytes = decodeInput(item.data, job.encoding, `items[${index}].data`);
    const digest = sha224(bytes);
    const result: BatchItemResult = { id: item.id, digest: digest.toString('hex'), size: bytes.length };
    if (item.expected !== undefined) result.valid = digestMatchesHex(digest, item.expected);
    return result;
  });
  return { results };
}

/** Dispatch for the kinds that need nothing but their payload. */
export const MEMORY_KINDS = ['hash', 'hmac', 'verify', 'batch'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export function isMemoryKind(kind: string): kind is MemoryKind {
  return (MEMORY_KINDS as readonly string[]).includes(kind);
}

const COMPUTE: { readonly [K in MemoryKind]: (payload: JobPayloads[K]) => JobResults[K] } = {
  hash: computeHash,
  hmac: computeHmac,
  verify: computeVerify,
  batch: computeBatch,
};

export function computeMemoryJob<K extends MemoryKind>(kind: K, payload: JobPayloads[K]): JobResults[K] {
  return (COMPUTE[kind] as (p: JobPayloads[K]) => JobResults[K])(payload);
}

/**
 * The result of a file or stream job from its bytes' digest and size, wherever they were hashed
 * (a worker reading the blob, or the API node as they arrived). A file job with `expected` (v1
 * /verify/file) is verified here, in constant time, like a verify job.
 */
export function uploadResult(job: FileJob | StreamJob, digest: Buffer, size: number): JobResults['file'] {
  const result: JobResults['file'] = { digest: digest.toString('hex'), size };
  if ('expected' in job && job.expected !== undefined) result.valid = digestMatchesHex(digest, job.expected);
  return result;
}
