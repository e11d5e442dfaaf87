/**
 * The in-memory core of hash, hmac, verify and batch jobs. Pure and synchronous: workers run it
 * for queued jobs and API nodes run it directly for inputs up to INLINE_MAX_BYTES,
 * so both paths give byte-identical results.
 */
import { decodeInput, encodingProblem, type InputEncoding } from '../hashing/encoding.js';
import { hmacSha224 } from '../hashing/hmac.js';
import { sha224, sha224Hex } from '../hashing/sha224.js';
import { ServiceError } from '../errors.js';
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
 * The API's schema has already checked every item, but a queued payload is input too, so the
 * check runs again here; only its cost per item is trimmed (a batch is up to 1000 items).
 */
export function computeBatch(job: BatchJob): JobResults['batch'] {
  const { items, encoding } = job;
  const results: BatchItemResult[] = new Array<BatchItemResult>(items.length);
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as BatchJob['items'][number];
    // utf8 text is hashed as the string itself: crypto encodes it as UTF-8 exactly as Buffer.from
    // would, without the intermediate Buffer.
    const input = encoding === 'utf8' ? item.data : decodeBatchItem(item.data, encoding, index);
    const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
    if (item.expected === undefined) {
      results[index] = { id: item.id, digest: sha224Hex(input), size };
    } else {
      const digest = sha224(input);
      results[index] = { id: item.id, digest: digest.toString('hex'), size, valid: digestMatchesHex(digest, item.expected) };
    }
  }
  return { results };
}

/** decodeInput for one batch item; the field's name is built only when the item fails. */
function decodeBatchItem(data: string, encoding: InputEncoding, index: number): Buffer {
  if (encodingProblem(data, encoding) !== undefined) return decodeInput(data, encoding, `items[${index}].data`);
  return Buffer.from(data, encoding);
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
  if (job.mustMatch !== undefined) {
    if (!digestMatchesHex(digest, job.mustMatch)) throw hashMismatch(job.mustMatch, result.digest);
    result.verified = true;
  }
  return result;
}

/** Verify on ingest failed: both digests are the caller's to see (its own claim and its own bytes' digest). */
export function hashMismatch(expected: string, computed: string): ServiceError {
  return new ServiceError('HASH_MISMATCH', {
    details: `expected ${expected.toLowerCase()}, computed ${computed}`,
    extra: { expected: expected.toLowerCase(), computed },
  });
}
