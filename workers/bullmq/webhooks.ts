/**
 * The consumer of the BullMQ `webhook` queue (shared/webhooks/bullmq.ts). An `event` job records
 * its delivery rows (one per matching endpoint) and makes their first attempts itself
 * (shared/webhooks/event-deliveries.ts); `attempt` jobs, queued only for a retry, a replay or a
 * test event, run one attempt. Either adds the next attempt, delayed, when the answer calls for one.
 *
 * Delivery is at least once: a worker killed during an attempt loses its lock, BullMQ's stalled
 * check hands the same job to another worker, and the delivery, still pending in the store with
 * that attempt unrecorded, is sent again with the same webhook-id. A worker that dies after recording an attempt
 * but before adding the next is covered by the rescue sweep: due rows left pending for a while
 * are added again under their deterministic job id (a duplicate add is a no-op).
 */
import { Worker } from 'bullmq';
import type { Logger } from '../../shared/log.js';
import { WEBHOOK_QUEUE_NAME } from '../../shared/naming.js';
import { bullPrefixOf } from '../../shared/queue/bullmq-wire.js';
import { closeRedis, createRedis } from '../../shared/queue/redis-connection.js';
import { BullMqWebhookProducer, type WebhookJobData } from '../../shared/webhooks/bullmq.js';
import type { WebhookMetrics } from '../../shared/webhooks/metrics.js';
import type { WebhookCore } from '../../shared/webhooks/open.js';
import type { AttemptResult, SendGate } from '../../shared/webhooks/deliver.js';
import { EventDeliveries } from '../../shared/webhooks/event-deliveries.js';
import type { FinishedJobListener } from './options.js';

export interface WebhookWorkerOptions {
  connection: string;
  prefix: string | undefined;
  core: WebhookCore;
  logger: Logger;
  /** Queue jobs at once in this process (each reads and writes the store around its requests). */
  concurrency: number;
  /** Requests in flight to one endpoint in this process (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** How often due deliveries with no queued attempt are looked for; 0: never. */
  rescueIntervalMs?: number;
  /** Sets the pending-deliveries gauge at each rescue sweep. */
  metrics?: WebhookMetrics;
}

export interface WebhookWorker {
  /** For the job finisher (pool.ts `onJobFinished`). */
  onJobFinished: FinishedJobListener;
  close(): Promise<void>;
}

export async function startWebhookWorker(options: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { core, logger } = options;
  const base = createRedis(options.connection, 'worker', { logger, connectionName: 'sha224d:webhook-worker' });
  const producerRedis = createRedis(options.connection, 'producer', { logger, connectionName: 'sha224d:webhook-producer' });
  const producer = new BullMqWebhookProducer(producerRedis, options.prefix);
  const events = new EventDeliveries(core.db, core.store);
  const slots = new EndpointSlots(options.perEndpoint);
  const gate: SendGate = (endpointId, send) => slots.run(endpointId, send);
  const retryIfAsked = async (deliveryId: string, result: AttemptResult): Promise<void> => {
    if (result.state === 'retry') await producer.attempt(deliveryId, result.attemptsMade, result.delayMs);
  };

  const worker = new Worker<WebhookJobData>(
    WEBHOOK_QUEUE_NAME,
    async (job) => {
      const data = job.data;
      if (data.type === 'event') {
        const firsts = await events.record(data.job, data.target);
        const settled = await Promise.allSettled(
          firsts.map(async ({ delivery, endpoint }) =>
            retryIfAsked(delivery.id, await core.deliverer.attemptLoaded(delivery, endpoint, gate)),
          ),
        );
        // Every attempt has ended; one that could not record its outcome fails the job, whose
        // retry finds that delivery still unattempted and attempts it again (event-deliveries.ts).
        const failure = settled.find((s) => s.status === 'rejected');
        if (failure !== undefined) throw failure.reason;
        return;
      }
      await retryIfAsked(data.deliveryId, await core.deliverer.attempt(data.deliveryId, gate));
    },
    {
      connection: base,
      prefix: bullPrefixOf(options.prefix),
      concurrency: options.concurrency,
      ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
      ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    },
  );
  worker.on('error', (err) => logger.warn({ err }, 'webhook worker error'));
  worker.on('failed', (job, err) => logger.warn({ err, jobId: job?.id }, 'webhook queue job failed'));
  await worker.waitUntilReady();

  const rescueMs = options.rescueIntervalMs ?? 60_000;
  const rescue =
    rescueMs === 0
      ? undefined
      : setInterval(() => {
          void (async () => {
            for (const d of await core.store.dueDeliveries(Date.now() - rescueMs, 500)) await producer.attempt(d.id, d.attempts);
            options.metrics?.backlog(await core.store.pendingCount());
          })().catch((err: unknown) => logger.warn({ err }, 'webhook rescue sweep failed'));
        }, rescueMs);
  rescue?.unref();

  return {
    onJobFinished(job, target) {
      producer.event(job, target).catch((err: unknown) => logger.warn({ err, jobId: job.id }, 'webhook event not queued'));
    },
    async close() {
      if (rescue !== undefined) clearInterval(rescue);
      await worker.close();
      await producer.close();
      await Promise.allSettled([closeRedis(base), closeRedis(producerRedis)]);
    },
  };
}

/** At most `limit` requests to one endpoint at once in this process; the rest wait their turn. */
class EndpointSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly limit: number) {}

  async run<T>(endpointId: string, fn: () => Promise<T>): Promise<T> {
    if ((this.busy.get(endpointId) ?? 0) >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(endpointId) ?? [];
        queue.push(resolve);
        this.waiting.set(endpointId, queue);
      });
    } else {
      this.busy.set(endpointId, (this.busy.get(endpointId) ?? 0) + 1);
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.get(endpointId)?.shift();
      // The slot passes to the next waiter as it is; with none, it is freed.
      if (next !== undefined) next();
      else {
        const left = (this.busy.get(endpointId) ?? 1) - 1;
        if (left === 0) this.busy.delete(endpointId);
        else this.busy.set(endpointId, left);
        if (this.waiting.get(endpointId)?.length === 0) this.waiting.delete(endpointId);
      }
    }
  }
}
