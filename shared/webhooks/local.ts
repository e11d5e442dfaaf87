/**
 * Webhooks in embedded mode: the in-process queue's finished async jobs become deliveries, and
 * the local dispatcher (dispatch-local.ts) runs their attempts from the delivery table.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Logger } from '../log.js';
import type { JobQueue } from '../queue/types.js';
import { LocalWebhookDispatcher } from './dispatch-local.js';
import { finishedJobOf } from './events.js';
import type { WebhookMetrics } from './metrics.js';
import { openWebhookCore, type WebhookConfig, type WebhookCore } from './open.js';
import type { SendPolicy } from './send.js';
import { WebhookService } from './service.js';

export interface LocalWebhooks {
  core: WebhookCore;
  service: WebhookService;
  dispatcher: LocalWebhookDispatcher;
  close(): Promise<void>;
}

export async function startLocalWebhooks(options: {
  config: WebhookConfig & { WEBHOOK_POLL_MS: number; WEBHOOK_ENDPOINT_CONCURRENCY: number };
  db: Kysely<Database>;
  queue: Pick<JobQueue, 'onFinished' | 'get'>;
  logger: Logger;
  metrics?: WebhookMetrics;
  lookup?: SendPolicy['lookup'];
}): Promise<LocalWebhooks | undefined> {
  const { config, logger, queue } = options;
  const core = await openWebhookCore(config, options.db, logger, {
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  if (core === undefined) return undefined;
  const dispatcher = new LocalWebhookDispatcher({
    store: core.store,
    deliverer: core.deliverer,
    logger,
    pollMs: config.WEBHOOK_POLL_MS,
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    total: Math.max(16, config.WEBHOOK_ENDPOINT_CONCURRENCY),
    metrics: options.metrics,
  });
  const service = new WebhookService({
    store: core.store,
    box: core.box,
    schedule: dispatcher.schedule,
    secretOverlapMs: core.secretOverlapMs,
    allowCidrs: core.allowCidrs,
  });
  const pendingEmits = new Set<Promise<void>>();
  const stopListening = queue.onFinished((jobId) => {
    // get() reads the record at once, before a synchronous job's caller forgets it.
    const emit = queue
      .get(jobId)
      .then(async (record) => {
        if (record?.webhook === undefined) return;
        const job = finishedJobOf(record);
        if (job !== undefined) await service.jobFinished(job, record.webhook);
      })
      .catch((err: unknown) => logger.warn({ err, jobId }, 'webhook event not recorded'))
      .finally(() => pendingEmits.delete(emit));
    pendingEmits.add(emit);
  });
  dispatcher.start();
  return {
    core,
    service,
    dispatcher,
    async close() {
      stopListening();
      await Promise.allSettled([...pendingEmits]);
      await dispatcher.close();
      await core.deliverer.close();
    },
  };
}
