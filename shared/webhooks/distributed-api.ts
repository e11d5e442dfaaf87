/**
 * The API role's webhook service in distributed mode: endpoints are managed in the shared store,
 * and test events and replays go to the BullMQ `webhook` queue for the workers to attempt.
 */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { closeRedis, createRedis } from '../queue/redis-connection.js';
import type { Database } from '../store/schema.js';
import { BullMqWebhookProducer } from './bullmq.js';
import { openWebhookCore, type WebhookConfig } from './open.js';
import { WebhookService } from './service.js';

export async function openDistributedWebhookService(
  config: WebhookConfig & Pick<Config, 'redis'> & { QUEUE_PREFIX?: string | undefined },
  db: Kysely<Database>,
  logger: Logger,
): Promise<{ service: WebhookService; close(): Promise<void> } | undefined> {
  if (config.redis === undefined) return undefined;
  const core = await openWebhookCore(config, db, logger);
  if (core === undefined) return undefined;
  const redis = createRedis(config.redis, 'producer', { logger, connectionName: 'sha224d:webhook-api', lazy: true });
  const producer = new BullMqWebhookProducer(redis, config.QUEUE_PREFIX);
  const service = new WebhookService({
    store: core.store,
    box: core.box,
    schedule: producer.schedule,
    secretOverlapMs: core.secretOverlapMs,
    allowCidrs: core.allowCidrs,
  });
  return {
    service,
    async close() {
      await producer.close();
      await closeRedis(redis);
    },
  };
}
