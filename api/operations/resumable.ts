/**
 * Resumable uploads (tus 1.0 at /v2/uploads; docs/decisions.md "Resumable uploads"): create,
 * read, append to and terminate an upload whose record and lock live in the ResumableStore and
 * whose bytes live in the blob store, one object per PATCH, where the record outlives this process
 * (Redis). The offset advances only once a PATCH's bytes are received, stored where they are kept,
 * and hashed, under the upload's lock; the last byte's PATCH finishes the digest from the hash
 * state and submits a `file` job carrying it.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import { resumableSegmentKey, RESUMABLE_BLOB_PREFIX } from '../../shared/naming.js';
import { freshHash, HASH_TAG, rehash, resumeHash, type ResumableHash } from '../../shared/uploads/hash-state.js';
import { isExpired, type ResumableRecord, type UploadSegment } from '../../shared/uploads/record.js';
import { TOMBSTONE_MS } from '../../shared/uploads/store.js';
import type { ApiDeps } from '../deps.js';
import { isLive } from '../../shared/uploads/live-hashes.js';
import type { BlobSink } from '../../shared/blob/types.js';
import { discardSink } from '../uploads/discard-sink.js';

type Deps = Pick<ApiDeps, 'blobs' | 'resumable' | 'uploadHashes' | 'executor' | 'queue' | 'config' | 'maxUploadBytes' | 'logger'>;

/** A PATCH may be cut into at most this many stored segments: each is one object and one entry in the record. */
export const MAX_SEGMENTS = 10_000;
/** The default `chunk_size` a finished upload's job reports, as /v2/file's. */
const JOB_CHUNK_SIZE = 1024 * 1024;

export interface NewUpload {
  /** Upload-Length, or undefined with Upload-Defer-Length: 1. */
  length: number | undefined;
  rawMetadata: string | undefined;
  filename: string;
  expectedSha224: string | undefined;
}

/** The largest upload this caller may make: the plan's /v2/stream limit (client keys: their small cap). */
export function resumableMaxBytes(deps: Pick<ApiDeps, 'maxUploadBytes'>, principal: Principal): number {
  return deps.maxUploadBytes(principal, 'v2-stream');
}

const keepUntil = (record: ResumableRecord): number => record.expiresAt + TOMBSTONE_MS;

export async function createUpload(deps: Deps, principal: Principal, upload: NewUpload): Promise<ResumableRecord> {
  const maxBytes = resumableMaxBytes(deps, principal);
  if (upload.length !== undefined && upload.length > maxBytes) {
    throw new ServiceError('FILE_TOO_LARGE', { details: `maximum size is ${maxBytes} bytes`, extra: { max_bytes: maxBytes } });
  }
  const now = Date.now();
  const hash = await freshHash();
  const record: ResumableRecord = {
    id: randomUUID().replaceAll('-', ''),
    accountId: principal.accountId,
    length: upload.length ?? null,
    offset: 0,
    maxBytes,
    rawMetadata: upload.rawMetadata,
    filename: upload.filename,
    expectedSha224: upload.expectedSha224,
    createdAt: now,
    expiresAt: now + deps.config.UPLOAD_EXPIRY_SECONDS * 1000,
    segments: [],
    hashState: hash.save(),
    hashTag: HASH_TAG,
    hashOffset: 0,
  };
  if (!(await deps.resumable.create(record, keepUntil(record)))) throw new ServiceError('CONFLICT', { details: 'upload id collision' });
  // Its last byte submits a file job: the queue is built meanwhile, not after that byte.
  deps.queue.prepare?.('file');
  return record;
}

/**
 * The caller's upload. Another account's is absent (404), so ids cannot be probed; an expired
 * one is 410 and its bytes are deleted now, whichever request notices first.
 */
export async function uploadOf(deps: Deps, principal: Principal, id: string): Promise<ResumableRecord> {
  const record = /^[0-9a-f]{32}$/.test(id) ? await deps.resumable.get(id) : undefined;
  if (record === undefined || record.accountId !== principal.accountId) throw new ServiceError('NOT_FOUND', { details: 'no such upload' });
  if (isExpired(record, Date.now())) {
    deps.uploadHashes.drop(record.id);
    await deleteSegments(deps, record);
    throw new ServiceError('UPLOAD_EXPIRED', { details: `expired at ${new Date(record.expiresAt).toISOString()}` });
  }
  return record;
}

export interface Append {
  /** Upload-Offset: where the client believes the upload stands. */
  offset: number;
  /** Upload-Length sent with a PATCH of a deferred-length upload. */
  length: number | undefined;
}

/** Receives one PATCH body into `sink` as the segment `key` through `hash`; the segment is stored when it resolves. */
export type SegmentReceiver = (sink: BlobSink, key: string, maxBytes: number, hash: ResumableHash) => Promise<{ size: number }>;

/** Appends one PATCH under the upload's lock; resolves with the record as committed. */
export async function appendToUpload(
  deps: Deps,
  principal: Principal,
  id: string,
  append: Append,
  receive: SegmentReceiver,
): Promise<ResumableRecord> {
  await uploadOf(deps, principal, id);
  const token = await deps.resumable.lock(id);
  if (token === undefined) throw new ServiceError('UPLOAD_LOCKED', { retryAfter: 1 });
  // A PATCH may outlast UPLOAD_LOCK_MS: the lock is renewed while it runs, and lapses after a node dies.
  const renewal = setInterval(
    () => void deps.resumable.renew(id, token).catch(() => undefined),
    Math.max(250, deps.config.UPLOAD_LOCK_MS / 3),
  );
  renewal.unref();
  try {
    // Read again under the lock: the record another node committed a moment ago is the truth.
    const record = await uploadOf(deps, principal, id);
    if (append.offset !== record.offset) {
      throw new ServiceError('UPLOAD_OFFSET_MISMATCH', {
        details: `Upload-Offset is ${append.offset}; the upload holds ${record.offset} bytes`,
      });
    }
    const length = settledLength(record, append.length);
    if (record.jobId !== undefined) return record;
    if (record.segments.length >= MAX_SEGMENTS) {
      throw new ServiceError('INVALID_INPUT', {
        message: `An upload takes at most ${MAX_SEGMENTS} PATCH requests`,
        details: 'send larger PATCH bodies',
      });
    }
    const hash = await hashOver(deps, record);
    // Where the record dies with this process (embedded mode), so does this node's hash, the only
    // reader the bytes would ever have: they are counted and dropped as /v2/stream's are, and the
    // live hash kept as long as the record. Writing them was all of embedded mode's extra CPU per MB
    // over /v2/stream (docs/decisions.md "Resumable uploads").
    const keepBytes = deps.resumable.outlivesProcess;
    const key = resumableSegmentKey(record.accountId, record.id, record.offset);
    const { size } = await receive(keepBytes ? deps.blobs : discardSink, key, (length ?? record.maxBytes) - record.offset, hash);
    const next: ResumableRecord = { ...record, length };
    const segments = size > 0 && keepBytes ? [...record.segments, { key, size }] : record.segments;
    if (size > 0) {
      next.offset = record.offset + size;
      next.segments = segments;
      const state = hash.save();
      if (state === undefined) {
        // Hashed in this node's memory: the saved state stays where it was (shared/uploads/live-hashes.ts).
        next.hashOffset = record.hashOffset ?? record.offset;
      } else {
        next.hashState = state;
        next.hashTag = HASH_TAG;
        next.hashOffset = next.offset;
      }
    } else {
      await deps.blobs.delete(key).catch(() => undefined);
    }
    const complete = next.length !== null && next.offset === next.length;
    if (complete) {
      // The job is submitted before the last offset is committed: if the queue refuses it (503),
      // the PATCH fails as a whole and the client sends it again, never finding a full offset
      // without a job.
      try {
        next.jobId = await submitDigestJob(deps, principal, next, hash.digestHex());
      } catch (err) {
        await deps.blobs.delete(key).catch(() => undefined);
        throw err;
      }
      next.segments = [];
    }
    if (!(await deps.resumable.commit(next, token, keepUntil(next)))) {
      // Another request holds the lock now (this one stalled past UPLOAD_LOCK_MS): its bytes are not part of the upload.
      await deps.blobs.delete(key).catch(() => undefined);
      throw new ServiceError('UPLOAD_LOCKED', { details: 'the upload lock was lost while writing', retryAfter: 1 });
    }
    if (isLive(hash) && !complete) {
      if (size > 0) deps.uploadHashes.keep(id, next.offset, hash, keepBytes ? undefined : keepUntil(next));
    } else deps.uploadHashes.drop(id);
    // The digest is known: nothing reads the bytes again. Deleted after the answer, not before it
    // (unlinking 1 GiB of segments took ~50 ms); what a crash leaves meanwhile is the sweep's.
    if (complete) void deleteSegments(deps, { segments });
    return next;
  } finally {
    clearInterval(renewal);
    await deps.resumable.release(id, token);
  }
}

/** The upload's length after this PATCH: set once, when it was deferred, never changed after. */
function settledLength(record: ResumableRecord, sent: number | undefined): number | null {
  if (sent === undefined) return record.length;
  if (record.length !== null && sent !== record.length) {
    throw new ServiceError('INVALID_INPUT', { message: 'Upload-Length cannot change once set', details: 'header: upload-length' });
  }
  if (sent < record.offset)
    throw new ServiceError('INVALID_INPUT', { message: 'Upload-Length is below the upload offset', details: 'header: upload-length' });
  if (sent > record.maxBytes) {
    throw new ServiceError('FILE_TOO_LARGE', {
      details: `maximum size is ${record.maxBytes} bytes`,
      extra: { max_bytes: record.maxBytes },
    });
  }
  return sent;
}

/**
 * The hash over the upload's first `offset` bytes: this node's own in memory (node:crypto) when it
 * took every byte so far; else the saved state, continued over the segments stored past it (once,
 * on the first PATCH after a change of node); a state missing or of another tag is rebuilt from
 * every stored byte.
 */
async function hashOver(deps: Deps, record: ResumableRecord): Promise<ResumableHash> {
  const live = deps.uploadHashes.resume(record.id, record.offset);
  if (live !== undefined) return live;
  const checkpoint = record.hashOffset ?? record.offset;
  const saved = await resumeHash(record.hashState, record.hashTag);
  if (saved !== undefined && checkpoint === record.offset) return saved;
  const past = saved === undefined ? undefined : segmentsFrom(record.segments, checkpoint);
  if (past === undefined) {
    deps.logger.warn({ upload: record.id, offset: record.offset }, 'resumable upload: hash state unusable, re-hashing the stored bytes');
  } else {
    deps.logger.info(
      { upload: record.id, offset: record.offset, from: checkpoint },
      "resumable upload: continuing another node's hash over the bytes stored since its saved state",
    );
  }
  const { hash, size } = await rehash(
    (async function* () {
      for (const segment of past ?? record.segments) yield await deps.blobs.get(segment.key);
    })(),
    past === undefined ? undefined : saved,
  );
  const expected = past === undefined ? record.offset : record.offset - checkpoint;
  if (size !== expected)
    throw new ServiceError('INTERNAL_ERROR', { cause: new Error(`upload ${record.id}: stored ${size} of ${expected} bytes`) });
  return hash;
}

/** The segments from byte `offset` on, or undefined when no segment starts there. */
function segmentsFrom(segments: UploadSegment[], offset: number): UploadSegment[] | undefined {
  let at = 0;
  for (const [i, segment] of segments.entries()) {
    if (at === offset) return segments.slice(i);
    at += segment.size;
  }
  return at === offset ? [] : undefined;
}

/**
 * The last byte is in: the digest came from the hash state (nothing is read back), and a `file`
 * job carries it (GET /v2/jobs/{id}, socket.io pushes, retention as any job). Its `blob` names no
 * stored object: the segments are deleted once the job is recorded.
 */
async function submitDigestJob(deps: Deps, principal: Principal, record: ResumableRecord, digest: string): Promise<string> {
  const job = await deps.executor.submit(
    'file',
    {
      blob: { key: `${RESUMABLE_BLOB_PREFIX}${record.accountId}/${record.id}/digested`, size: record.offset },
      filename: record.filename,
      chunkSize: JOB_CHUNK_SIZE,
      output: 'hex',
      digested: { digest, size: record.offset },
      ...(record.expectedSha224 === undefined ? {} : { mustMatch: record.expectedSha224 }),
    },
    principal,
  );
  return job.id;
}

/** Termination (DELETE): bytes and record go at once. */
export async function terminateUpload(deps: Deps, principal: Principal, id: string): Promise<void> {
  const record = await uploadOf(deps, principal, id);
  const token = await deps.resumable.lock(id);
  if (token === undefined) throw new ServiceError('UPLOAD_LOCKED', { retryAfter: 1 });
  try {
    const current = (await deps.resumable.get(id)) ?? record;
    deps.uploadHashes.drop(id);
    await deleteSegments(deps, current);
    await deps.resumable.remove(id, token);
  } finally {
    await deps.resumable.release(id, token);
  }
}

async function deleteSegments(deps: Pick<ApiDeps, 'blobs'>, record: Pick<ResumableRecord, 'segments'>): Promise<void> {
  // Idempotent; what a store outage leaves is the sweep's (shared/uploads/sweep.ts).
  await Promise.all(record.segments.map((segment) => deps.blobs.delete(segment.key).catch(() => undefined)));
}
