/**
 * Every Redis key, queue name and object-store key is built here, so a reviewer sees the whole
 * key space in one place and two modules can never collide.
 */
import { randomUUID } from 'node:crypto';
import type { QueueName } from './jobs/contracts.js';

export const KEY_PREFIX = 'sha224d';

export function bullQueueName(queue: QueueName): string {
  return `${KEY_PREFIX}-${queue}`;
}

/** The BullMQ queue of webhook work in distributed mode (shared/webhooks/bullmq.ts): events, then attempts. */
export const WEBHOOK_QUEUE_NAME = `${KEY_PREFIX}-webhook`;

/** Where every uploaded body lives in the blob store: what the blob sweep lists (shared/blob/sweep.ts). */
export const UPLOADS_BLOB_PREFIX = 'uploads/';

/** Object key of an uploaded body. The account id is a prefix so lifecycle rules can target it. */
export function uploadBlobKey(accountId: string): string {
  return `${UPLOADS_BLOB_PREFIX}${accountId}/${randomUUID()}`;
}

/**
 * Where the bytes of resumable (tus) uploads live: one object per PATCH segment, under a prefix of
 * their own so the job-blob sweep (shared/blob/sweep.ts) never mistakes an idle upload for an
 * orphan; shared/uploads/sweep.ts sweeps it against the uploads' records.
 */
export const RESUMABLE_BLOB_PREFIX = 'resumable/';

/** One PATCH segment of upload `uploadId`, starting at byte `offset` (zero-padded so listings sort by offset). */
export function resumableSegmentKey(accountId: string, uploadId: string, offset: number): string {
  return `${RESUMABLE_BLOB_PREFIX}${accountId}/${uploadId}/${String(offset).padStart(16, '0')}-${randomUUID()}`;
}

/** The upload id a segment key belongs to, or undefined for a key of another shape. */
export function resumableUploadIdOf(key: string): string | undefined {
  const parts = key.slice(RESUMABLE_BLOB_PREFIX.length).split('/');
  return key.startsWith(RESUMABLE_BLOB_PREFIX) && parts.length === 3 ? parts[1] : undefined;
}

/** A resumable upload's record (offset, hash state, segment list): JSON, expiring after the upload. */
export function resumableUploadRedisKey(uploadId: string): string {
  return `${KEY_PREFIX}:tus:${uploadId}`;
}

/** The per-upload write lock a PATCH or DELETE holds (SET NX PX, fenced on commit). */
export function resumableLockRedisKey(uploadId: string): string {
  return `${KEY_PREFIX}:tus-lock:${uploadId}`;
}

/** Held by the API node sweeping resumable-upload bytes this interval. */
export const RESUMABLE_SWEEP_LOCK_KEY = `${KEY_PREFIX}:tus-sweep`;

export function idempotencyRedisKey(accountId: string, key: string): string {
  return `${KEY_PREFIX}:idem:${accountId}:${key}`;
}

export function jobOwnerRedisKey(jobId: string): string {
  return `${KEY_PREFIX}:job:${jobId}`;
}

export function wsConnectionsRedisKey(accountId: string): string {
  return `${KEY_PREFIX}:ws:${accountId}`;
}

/** Held (SET NX PX) by the worker that sweeps blobs this interval, so the others skip it. */
export const BLOB_SWEEP_LOCK_KEY = `${KEY_PREFIX}:blob-sweep`;

export const SOCKET_IO_REDIS_CHANNEL = `${KEY_PREFIX}-socket.io`;
/** Finished jobs nobody waits on synchronously (async jobs): every API node listens. */
export const JOB_EVENTS_CHANNEL = `${KEY_PREFIX}:job-events`;

/** One API node's own channel: the outcomes of the synchronous jobs it submitted (their `replyTo`). */
export function nodeJobEventsChannel(nodeId: string): string {
  return `${JOB_EVENTS_CHANNEL}:${nodeId}`;
}

/** BullMQ's own key prefix (its default), so operator tools that assume `bull:` find the queues. */
export const BULL_PREFIX = 'bull';

/**
 * A key or channel of this service inside an optional namespace. Deployments (and test files)
 * sharing one Redis pass a namespace; production leaves it undefined and keys are unchanged.
 */
export function namespacedRedisKey(namespace: string | undefined, key: string): string {
  return namespace === undefined ? key : `${namespace}:${key}`;
}

/**
 * Counters of the request limiter. `base` is LIMITS_KEY_BASE in service; tests pass
 * their own. `scope` keeps sandbox counts apart from production.
 */
export const LIMITS_KEY_BASE = `${KEY_PREFIX}:limits`;

/** One fixed, clock-aligned rate window (`windowIndex` = floor(epoch ms / window ms)). */
export function rateWindowRedisKey(base: string, scope: string, bucket: string, accountId: string, windowIndex: number): string {
  return `${base}:${scope}:rate:${bucket}:${accountId}:${windowIndex}`;
}

/** An account's request count for one UTC day ('YYYY-MM-DD'). */
export function quotaDayRedisKey(base: string, scope: string, accountId: string, day: string): string {
  return `${base}:${scope}:day:${accountId}:${day}`;
}

/** A bulk job's record and counters (shared/bulk/redis-store.ts): a hash, expiring after the job. */
export function bulkRedisKey(bulkId: string): string {
  return `${KEY_PREFIX}:bulk:${bulkId}`;
}

/** The ids of an account's bulk jobs not yet finished: the per-account bound reads it. */
export function bulkActiveRedisKey(accountId: string): string {
  return `${KEY_PREFIX}:bulk-active:${accountId}`;
}

/** The BullMQ queue of bulk chunks (shared/bulk/bullmq-chunks.ts): a queue of its own, sized apart from interactive work. */
export const BULK_QUEUE_NAME = `${KEY_PREFIX}-bulk`;
