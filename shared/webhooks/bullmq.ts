/**
 * Distributed mode's webhook work on the BullMQ `webhook` queue (naming.ts WEBHOOK_QUEUE_NAME).
 * Two job names: `event` (a finished async job, turned into deliveries and their first attempts by
 * a worker) and `attempt` (one attempt of one delivery, delayed to when it is due: a retry, or the
 * first attempt of a replay or a test event). Job ids are deterministic —
 * `evt-<job id>-<state>` and `<delivery id>-<attempts made>` — so the same event or the same
 * attempt added twice (a finisher run again, the rescue sweep) is one BullMQ job.
 */
import type { Queue } from 'bullmq';
import { newQueue } from '../queue/bullmq-load.js';
import type { RedisClient } from '../queue/redis-connection.js';
import { WEBHOOK_QUEUE_NAME } from '../naming.js';
import { bullPrefixOf } from '../queue/bullmq-wire.js';
import type { WebhookTarget } from '../queue/types.js';
import type { FinishedJob } from './events.js';

export type WebhookJobData = { type: 'event'; job: FinishedJob; target: WebhookTarget } | { type: 'attempt'; deliveryId: string };

/** Retries of the queue job itself (the store unreachable, say), not of the HTTP delivery. */
const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
} as const;

export class BullMqWebhookProducer {
  private queue: Promise<Queue<WebhookJobData, unknown, string>> | undefined;

  constructor(
    private readonly connection: RedisClient,
    private readonly prefix: string | undefined,
  ) {}

  /** The queue, built (and BullMQ imported: bullmq-load.ts) on the first add, not when an API node starts. */
  private built(): Promise<Queue<WebhookJobData, unknown, string>> {
    this.queue ??= newQueue<WebhookJobData>(WEBHOOK_QUEUE_NAME, { connection: this.connection, prefix: bullPrefixOf(this.prefix) });
    return this.queue;
  }

  async event(job: FinishedJob, target: WebhookTarget): Promise<void> {
    await (await this.built()).add('event', { type: 'event', job, target }, { ...JOB_OPTIONS, jobId: `evt-${job.id}-${job.state}` });
  }

  /** An attempt of each delivery, due in `delayMs`; `attemptsMade` keys it (0 for a new or replayed delivery). */
  async attempt(deliveryId: string, attemptsMade: number, delayMs = 0): Promise<void> {
    await (
      await this.built()
    ).add(
      'attempt',
      { type: 'attempt', deliveryId },
      { ...JOB_OPTIONS, jobId: `${deliveryId}-${attemptsMade}`, ...(delayMs > 0 ? { delay: delayMs } : {}) },
    );
  }

  /** The service's scheduler: first attempts (or replays), due now. */
  readonly schedule = async (deliveryIds: readonly string[]): Promise<void> => {
    await Promise.all(deliveryIds.map((id) => this.attempt(id, 0)));
  };

  async close(): Promise<void> {
    const queue = await this.queue?.catch(() => undefined);
    await queue?.close();
  }
}
