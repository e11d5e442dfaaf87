/**
 * The API role of distributed mode (`npm run api`): a thin node that authenticates, enqueues onto
 * BullMQ and waits for results. Run any number of them behind a balancer; workers run separately
 * (`npm run worker`).
 */
import path from 'node:path';
import { adminCommand, bootstrapFirstStart, firstStartText } from '../shared/accounts/first-start.js';
import { loadConfig } from '../shared/config.js';
import { openAccountStore, openBlobStore, retentionMs } from '../shared/infra.js';
import { createLogger } from '../shared/log.js';
import { processMetrics } from '../shared/metrics/catalogue.js';
import { checkRedisAtStart } from '../shared/queue/redis-requirements.js';
import { BullMqJobQueue } from '../shared/queue/bullmq-queue.js';
import { BullMqQueueStats } from '../shared/queue/bullmq-stats.js';
import { startApiNode } from './node.js';
import { afterFirstAnswer } from './http/after-first-answer.js';
import { loadBullMq } from '../shared/queue/bullmq-load.js';
import { openDistributedWebhookService } from '../shared/webhooks/distributed-api.js';
import { openDistributedBulk } from '../shared/bulk/open.js';
import { openSecretBox } from '../shared/webhooks/secrets-key.js';
import { startFailureText } from '../shared/start-failure.js';

const BULLMQ_WARM_DELAY_MS = 1000;

async function main(): Promise<void> {
  const config = loadConfig();
  const redis = config.redis;
  if (redis === undefined)
    throw new Error(
      'npm run api is the distributed API role and needs REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES; for one process use npm start',
    );
  const logger = createLogger(config.LOG_LEVEL);
  const store = await openAccountStore(config);
  const blobs = await openBlobStore(config, logger);
  const queue = new BullMqJobQueue({
    connection: redis,
    retentionMs: retentionMs(config),
    logger,
    prefix: config.QUEUE_PREFIX,
    attempts: config.JOB_ATTEMPTS,
    backoffMs: config.JOB_BACKOFF_MS,
    maxWaiting: config.QUEUE_MAX_WAITING,
    failoverRetryMs: config.REDIS_FAILOVER_RETRY_MS,
    // A single node has no replica to wait for.
    replicaWaitMs: redis.kind === 'single' ? 0 : config.REDIS_REPLICA_WAIT_MS,
  });
  // The queue gauges describe the whole cluster; every API node exports them (docs/operating.md).
  const metrics = processMetrics();
  const stats = new BullMqQueueStats({ connection: redis, prefix: config.QUEUE_PREFIX, logger });
  metrics.collectors.add(stats.collector(metrics));
  const webhooks = await openDistributedWebhookService(config, store.db, logger);
  // Bulk jobs: records on Redis, chunks on the `bulk` queue; S3 sources need SECRETS_KEY (shared/bulk/seal.ts).
  const bulk = await openDistributedBulk(config, logger);
  const secrets = await openSecretBox(config);
  const cleanups = [
    () => stats.close(),
    ...(webhooks ? [() => webhooks.close()] : []),
    () => bulk.chunks.close(),
    () => bulk.store.close(),
  ];
  const node = await startApiNode({
    config,
    logger,
    store,
    queue,
    blobs,
    metrics,
    cleanups,
    bulk: { ...bulk, ...(secrets ? { secrets } : {}) },
    ...(webhooks ? { webhooks: webhooks.service } : {}),
  });
  logger.info({ mode: 'distributed', role: 'api', port: node.listeners.main.port }, 'sha224d api listening');
  // BullMQ is imported on first use (shared/queue/bullmq-load.ts), and warmed once the first answer
  // is sent, so neither the cold start nor the first queued job pays for loading it. Redis's
  // settings are checked then too, on a connection of their own: a warning a second later says the
  // same, and the first request does not share the node's start with that connection and its replies.
  afterFirstAnswer(node.listeners.main.server, BULLMQ_WARM_DELAY_MS, () => {
    void checkRedisAtStart(redis, logger);
    loadBullMq().catch((err: unknown) => logger.error({ err }, 'BullMQ failed to load'));
  });
  // The first node to take the store's first-start lock creates the admin and prints its key and
  // link; every other node, now or later, prints nothing (shared/accounts/first-start.ts). Before
  // the "listening" line, so that line also says this node's first start is settled.
  const started = config.BOOTSTRAP_ADMIN
    ? await bootstrapFirstStart(store, { email: config.ADMIN_EMAIL, baseUrl: config.PUBLIC_URL ?? node.baseUrl })
    : undefined;
  // One write, so whoever sees the "listening" line sees the key with it.
  const firstStart = started ? firstStartText(started, node.baseUrl, adminCommand(config, path.dirname(import.meta.dirname))) : '';
  process.stdout.write(`sha224d api listening on ${node.baseUrl}\n${firstStart}`);
}

main().catch((err: unknown) => {
  process.stderr.write(startFailureText('sha224d api', err));
  process.exit(1);
});
