/** An Idempotency-Key claimed in Redis for a job about to be added (docs/decisions.md "Jobs and modes"). */
import type { RedisClient } from '../redis/client-factory.js';
import { ServiceError } from '../errors.js';
import type { QueueName } from '../jobs/contracts.js';
import { OWNER_KEY_SLACK_MS, type BullMqJobs } from './bullmq-jobs.js';
import { assertSameRequest, decodeIdempotencyRecord, encodeIdempotencyRecord } from './idempotency.js';

export interface IdempotencyClaim {
  /** The namespaced Redis key of the account's Idempotency-Key. */
  idemKey: string;
  /** The id the new job would get. */
  id: string;
  fingerprint: string | undefined;
  queueName: QueueName;
  retentionMs: number;
}

/**
 * SET NX the key to `id` and the request's fingerprint, with the job's owner key; if another job
 * holds it, that job's id (or IDEMPOTENCY_KEY_REUSED if it was claimed by a different request).
 * One round trip in the common case.
 */
export async function claimIdempotencyKey(redis: RedisClient, jobs: BullMqJobs, claim: IdempotencyClaim): Promise<string | undefined> {
  const { idemKey, id, fingerprint, queueName, retentionMs } = claim;
  for (let attempt = 0; attempt < 3; attempt++) {
    const replies = await redis
      .multi()
      .set(idemKey, encodeIdempotencyRecord(id, fingerprint), 'PX', retentionMs, 'NX')
      .set(jobs.ownerKey(id), queueName, 'PX', retentionMs + OWNER_KEY_SLACK_MS)
      .exec();
    const claimed = replies?.[0]?.[1] === 'OK';
    if (claimed) return undefined;
    const value = await redis.get(idemKey);
    if (value !== null) {
      const existing = decodeIdempotencyRecord(value);
      if ((await jobs.findJob(existing.jobId)) !== undefined) {
        assertSameRequest(existing.fingerprint, fingerprint);
        return existing.jobId;
      }
      // The job it named is gone (removed or never added): the key is free again, as in InProcessQueue.
      await redis.del(idemKey);
    }
    // The holder expired or was released between SET and GET: claim again.
  }
  throw new ServiceError('CONFLICT', { details: 'idempotency key is being reused concurrently; retry' });
}
