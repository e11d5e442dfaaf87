/**
 * A worker process's share of webhook delivery: with SECRETS_KEY set, it opens the store and
 * consumes the BullMQ `webhook` queue beside its job queues; without it, webhooks are off. The
 * store and the webhook modules are imported only then, so a worker without webhooks loads no
 * SQL driver.
 */
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/log.js';
import type { Metrics } from '../shared/metrics/catalogue.js';
import type { WebhookWorker } from './bullmq/webhooks.js';

export async function startWorkerWebhooks(config: Config, logger: Logger, metrics: Metrics): Promise<WebhookWorker | undefined> {
  if (config.REDIS_URL === undefined || config.SECRETS_KEY === undefined) {
    logger.info('webhook delivery off in this worker: SECRETS_KEY is not set');
    return undefined;
  }
  const [{ openAccountStore }, { webhookMetrics }, { openWebhookCore }, { startWebhookWorker }] = await Promise.all([
    import('../shared/infra.js'),
    import('../shared/webhooks/metrics.js'),
    import('../shared/webhooks/open.js'),
    import('./bullmq/webhooks.js'),
  ]);
  const store = await openAccountStore(config);
  const figures = webhookMetrics(metrics.registry);
  const core = await openWebhookCore(config, store.db, logger, { metrics: figures });
  if (core === undefined) {
    await store.close();
    return undefined;
  }
  const worker = await startWebhookWorker({
    connection: config.REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    core,
    logger,
    // Twice the requests one endpoint may have in flight: the other half reads and writes the
    // store meanwhile (docs/decisions.md "Webhooks").
    concurrency: Math.max(16, 2 * config.WEBHOOK_ENDPOINT_CONCURRENCY),
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    lockDurationMs: config.WORKER_LOCK_MS,
    stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
    metrics: figures,
  });
  return {
    onJobFinished: worker.onJobFinished,
    async close() {
      await worker.close();
      await core.deliverer.close();
      await store.close();
    },
  };
}
