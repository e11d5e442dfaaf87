/**
 * Builds the webhook pieces from configuration. Returns undefined when no SECRETS_KEY can be had
 * (distributed mode without one): webhooks are then off, and say so once at start.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Config } from '../config.js';
import { parseCidrList } from '../net/address-policy.js';
import type { Logger } from '../log.js';
import { KyselyWebhookStore } from '../store/kysely-webhooks.js';
import { WebhookDeliverer } from './deliver.js';
import type { WebhookMetrics } from './metrics.js';
import { parseRetrySchedule } from './schedule.js';
import { openSecretBox } from './secrets-key.js';
import type { SendPolicy } from './send.js';

export type WebhookConfig = Pick<
  Config,
  | 'SECRETS_KEY'
  | 'SECRETS_KEY_PREVIOUS'
  | 'mode'
  | 'dataDir'
  | 'WEBHOOK_ALLOW_CIDRS'
  | 'WEBHOOK_RETRY_SCHEDULE'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_DISABLE_AFTER_DAYS'
  | 'WEBHOOK_SECRET_OVERLAP_HOURS'
>;

export interface WebhookCore {
  /** The store's database, for the statements that span both webhook tables' work (event-deliveries.ts). */
  db: Kysely<Database>;
  store: KyselyWebhookStore;
  deliverer: WebhookDeliverer;
  box: NonNullable<Awaited<ReturnType<typeof openSecretBox>>>;
  secretOverlapMs: number;
  allowCidrs: string[];
}

export async function openWebhookCore(
  config: WebhookConfig,
  db: Kysely<Database>,
  logger: Logger,
  options: { metrics?: WebhookMetrics; lookup?: SendPolicy['lookup'] } = {},
): Promise<WebhookCore | undefined> {
  const box = await openSecretBox(config);
  if (box === undefined) {
    logger.warn('webhooks are off: distributed mode needs SECRETS_KEY (the same on every node)');
    return undefined;
  }
  const allowCidrs = parseCidrList(config.WEBHOOK_ALLOW_CIDRS);
  const store = new KyselyWebhookStore(db);
  const deliverer = new WebhookDeliverer({
    store,
    box,
    logger: logger.child({ component: 'webhooks' }),
    schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    send: { timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowCidrs, ...(options.lookup ? { lookup: options.lookup } : {}) },
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000,
    metrics: options.metrics,
  });
  return { db, store, deliverer, box, secretOverlapMs: config.WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000, allowCidrs };
}
