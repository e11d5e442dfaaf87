/**
 * What happens when a job completes or finally fails: it is announced — with its outcome on the
 * channel of the API node waiting for it (`replyTo`), else by id on the shared job-events channel
 * that the producer's onFinished listens to — its owner key expires with it, and its blob is
 * deleted (after BLOB_RETENTION, if set).
 */
import type { Job } from 'bullmq';
import type { RedisClient } from '../../shared/redis/client-factory.js';
import type { BlobStore } from '../../shared/blob/types.js';
import { blobOf } from '../../shared/jobs/contracts.js';
import type { Logger } from '../../shared/log.js';
import type { FinishedJob } from '../../shared/webhooks/events.js';
import type { FinishedJobListener } from './options.js';
import { jobOwnerRedisKey, namespacedRedisKey } from '../../shared/naming.js';
import { publishMessage } from '../../shared/redis/pubsub.js';
import {
  finishedChannelOf,
  finishedMessageOf,
  finishedRetentionMs,
  isBundleData,
  jobEventsChannel,
  parseFailedReason,
  type AnyBullJob,
  type BullBundleData,
  type BullJob,
  type BundleMessage,
  type BundleOutcome,
  type JobFinishedMessage,
} from '../../shared/queue/bullmq-wire.js';

export interface FinisherOptions {
  publisher: RedisClient;
  blobs: BlobStore;
  logger: Logger;
  prefix: string | undefined;
  blobRetentionMs: number;
  /** Told of each finished async job (a webhook target set at submission). */
  onJobFinished?: FinishedJobListener;
}

export class JobFinisher {
  /** Blob deletions waiting out BLOB_RETENTION; cleared on close (the store's lifecycle takes them). */
  private readonly blobTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: FinisherOptions) {}

  /** A finished job (completed, or failed with no retry left). */
  finish(anyJob: AnyBullJob, state: JobFinishedMessage['state']): void {
    if (isBundleData(anyJob.data)) {
      const bundle = anyJob as Job<BullBundleData, BundleOutcome[]>;
      this.announceBundle(
        bundle,
        state === 'completed'
          ? { id: bundle.id ?? '', state, outcomes: bundle.returnvalue }
          : { id: bundle.id ?? '', state, error: parseFailedReason(bundle.failedReason) },
      );
      // A bundle has no owner key and no blob (its kinds carry their data inline).
      return;
    }
    const job = anyJob as BullJob;
    const { prefix, publisher, logger } = this.options;
    // To the node waiting for it (with the outcome) if it names one, else to every node (bullmq-wire.ts).
    const channel = finishedChannelOf(prefix, job.data);
    const message = finishedMessageOf(job, state, channel !== jobEventsChannel(prefix));
    // Waiters poll the job's state, so a lost message only delays them.
    this.publish(channel, message, job.id, 'job-finished publish failed');
    // The owner key was set to outlive any time the job spends queued (shared/queue/bullmq-queue.ts);
    // now that the job is finished, it expires with the job instead of up to a day after it. On a
    // synchronous job's key, already deleted by its API node, PEXPIRE does nothing.
    const keepMs = finishedRetentionMs(job, state);
    if (job.id !== undefined && keepMs !== undefined) {
      publisher.pexpire(namespacedRedisKey(prefix, jobOwnerRedisKey(job.id)), keepMs).catch((err: unknown) => {
        // Its TTL set at submission still bounds it.
        logger.warn({ err, jobId: job.id }, 'shortening a finished job owner key TTL failed');
      });
    }
    const blob = blobOf(job.data.kind, job.data.payload);
    if (blob !== undefined) this.deleteBlob(blob.key);
    if (job.data.webhook !== undefined && job.id !== undefined)
      this.options.onJobFinished?.(finishedJobOfBull(job, state), job.data.webhook);
  }

  /** A bundle's outcomes (or, while it retries, its final items) to the node that submitted it. */
  announceBundle(job: Job<BullBundleData, unknown>, message: BundleMessage | JobFinishedMessage): void {
    const channel = finishedChannelOf(this.options.prefix, job.data);
    // Only the node that submitted a bundle waits for it; no other node has anything to learn.
    if (channel === jobEventsChannel(this.options.prefix)) return;
    this.publish(channel, message, job.id, 'bundle message publish failed');
  }

  /** Stops the pending blob deletions; returns how many were left to the object store's lifecycle. */
  close(): number {
    for (const timer of this.blobTimers) clearTimeout(timer);
    const pending = this.blobTimers.size;
    this.blobTimers.clear();
    return pending;
  }

  private publish(channel: string, message: BundleMessage | JobFinishedMessage, jobId: string | undefined, failure: string): void {
    publishMessage(this.options.publisher, channel, JSON.stringify(message)).catch((err: unknown) => {
      this.options.logger.warn({ err, jobId }, failure);
    });
  }

  private deleteBlob(key: string): void {
    const { blobs, logger, blobRetentionMs } = this.options;
    const remove = (): void => {
      blobs.delete(key).catch((err: unknown) => logger.warn({ err, key }, 'blob delete failed'));
    };
    if (blobRetentionMs === 0) {
      remove();
      return;
    }
    const timer = setTimeout(() => {
      this.blobTimers.delete(timer);
      remove();
    }, blobRetentionMs);
    timer.unref();
    this.blobTimers.add(timer);
  }
}

/** What a webhook event says of a finished BullMQ job. */
function finishedJobOfBull(job: BullJob, state: JobFinishedMessage['state']): FinishedJob {
  const base = { id: job.id ?? '', kind: job.data.kind, accountId: job.data.accountId, finishedAt: job.finishedOn ?? Date.now() };
  return state === 'completed'
    ? { ...base, state, result: job.returnvalue }
    : { ...base, state, error: parseFailedReason(job.failedReason) };
}
