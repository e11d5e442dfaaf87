/**
 * Which uploaded blobs distributed mode's live jobs still need: the keys referenced by the
 * waiting, active, delayed (a retry's backoff), prioritized and waiting-children jobs of the
 * queues whose kinds carry a blob. Read-only; the blob sweep (shared/blob/sweep.ts) keeps these.
 */
import { Queue, type JobType } from 'bullmq';
import type { RedisClient } from '../redis/client-factory.js';
import { blobOf, QUEUE_OF_KIND, type JobKind, type JobResults, type QueueName } from '../jobs/contracts.js';
import type { Logger } from '../log.js';
import { bullQueueName } from '../naming.js';
import { bullPrefixOf, type BullJobData } from './bullmq-wire.js';

/** Every state a job passes through before it finishes (BullMQ 6 keeps a paused queue's jobs in `wait`). */
const LIVE_STATES: JobType[] = ['wait', 'prioritized', 'delayed', 'active', 'waiting-children'];
/** The queues of file and stream jobs: only they carry blob references. */
const BLOB_QUEUES: readonly QueueName[] = [...new Set([QUEUE_OF_KIND.file, QUEUE_OF_KIND.stream])];
/** Job hashes are read this many at a time, so a long backlog is never loaded whole. */
const FETCH_BATCH = 500;

export interface LiveBlobKeysOptions {
  /** Closed by the caller, not here (BullMQ leaves a connection it was given open). */
  redis: RedisClient;
  /** QUEUE_PREFIX; must match the producer's and the workers'. */
  prefix?: string;
  logger: Logger;
}

export class BullMqLiveBlobKeys {
  private readonly queues: Array<Queue<BullJobData, JobResults[JobKind], JobKind>>;
  private closing: Promise<void> | undefined;

  constructor(options: LiveBlobKeysOptions) {
    this.queues = BLOB_QUEUES.map((name) => {
      const queue = new Queue<BullJobData, JobResults[JobKind], JobKind>(bullQueueName(name), {
        connection: options.redis,
        prefix: bullPrefixOf(options.prefix),
      });
      queue.on('error', (err: Error) => options.logger.debug({ err, queue: name }, 'live blob keys: queue error'));
      return queue;
    });
  }

  async read(): Promise<Set<string>> {
    const keys = new Set<string>();
    for (const queue of this.queues) {
      // One script reads the ids of every live state at one instant, so a job moving from one
      // state to another meanwhile is seen in one of them; its data is read after.
      const ids = await queue.getRanges(LIVE_STATES, 0, -1);
      for (let i = 0; i < ids.length; i += FETCH_BATCH) {
        const jobs = await Promise.all(ids.slice(i, i + FETCH_BATCH).map((id) => queue.getJob(id)));
        for (const job of jobs) {
          // Gone since the ids were read: it finished and was removed, so it needs nothing.
          const key = job === undefined ? undefined : blobKeyOf(job.data);
          if (key !== undefined) keys.add(key);
        }
      }
    }
    return keys;
  }

  close(): Promise<void> {
    this.closing ??= Promise.allSettled(this.queues.map((queue) => queue.close())).then(() => undefined);
    return this.closing;
  }
}

/** The blob key a job's data names, if any; data of another shape (not ours) names none. */
function blobKeyOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { kind, payload } = data as Partial<BullJobData>;
  if (typeof kind !== 'string' || typeof payload !== 'object' || payload === null || !(kind in QUEUE_OF_KIND)) return undefined;
  const key = blobOf(kind, payload)?.key as unknown;
  return typeof key === 'string' ? key : undefined;
}
