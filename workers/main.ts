/**
 * A worker process of distributed mode: `npm run worker -- --queues file,stream --concurrency 8`
 * (or WORKER_QUEUES / WORKER_CONCURRENCY). Runs the shared core on jobs from BullMQ; scale by
 * starting more of them, sized per queue.
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../shared/config.js';
import { blobRetentionMs, openBlobStore } from '../shared/blob/open.js';
import { QUEUE_NAMES, type QueueName } from '../shared/jobs/contracts.js';
import { createLogger } from '../shared/log.js';
import { cachedRefresh } from '../shared/metrics/cached.js';
import { processMetrics } from '../shared/metrics/catalogue.js';
import { setDependency } from '../shared/metrics/record.js';
import { BullMqQueueStats } from '../shared/queue/bullmq-stats.js';
import { checkRedisAtStart } from '../shared/queue/redis-requirements.js';
import { startBullMqWorkers } from './bullmq/pool.js';
import { closeRedis, createRedis, failFast } from '../shared/queue/redis-connection.js';
import { answersWithin, PROBE_TIMEOUT_MS } from '../shared/probe.js';
import { onShutdown } from '../shared/shutdown.js';
import { startWorkerBlobSweep } from './blob-sweep.js';
import { assertMetricsBinding, DEFAULT_METRICS_PORT, startMetricsServer } from './metrics-server.js';
import { createJobHandlers } from './registry.js';
import { startWorkerWebhooks } from './webhook-setup.js';
import { openRedisBulkStore } from '../shared/bulk/open.js';
import type { BulkStore } from '../shared/bulk/store.js';
import { openSecretBox } from '../shared/webhooks/secrets-key.js';
import { startBulkWorker } from './bulk/pool.js';
import { createChunkProcessor } from './bulk/process.js';
import { applyBulkPriority } from './bulk/priority.js';
import { startFailureText } from '../shared/start-failure.js';

function parseQueues(value: string): QueueName[] {
  const names = value
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
  const unknown = names.filter((q) => !(QUEUE_NAMES as readonly string[]).includes(q));
  if (names.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(`queues must be a comma-separated subset of ${QUEUE_NAMES.join(',')}`);
  return names as QueueName[];
}

function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InvalidArgumentError('concurrency must be an integer from 1 to 256');
  return n;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const cli = new Command('worker')
    .option('--queues <list>', 'queues to consume', parseQueues, parseQueues(config.WORKER_QUEUES))
    .option('--concurrency <n>', 'jobs at once per queue', parseConcurrency, config.WORKER_CONCURRENCY)
    .parse(process.argv);
  const options = cli.opts<{ queues: QueueName[]; concurrency: number }>();
  const redis = config.redis;
  if (redis === undefined)
    throw new Error(
      'npm run worker needs REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (embedded mode runs jobs in the npm start process)',
    );

  // Before any connection: a public metrics listener without a token is a configuration error.
  assertMetricsBinding(config.METRICS_HOST, config.METRICS_TOKEN);
  const logger = createLogger(config.LOG_LEVEL);
  // Before any work: a bulk worker sharing a host with an API node yields the CPU to it (docs/decisions.md "Bulk jobs").
  if (config.WORKER_BULK) applyBulkPriority(config.WORKER_BULK_NICE, logger);
  void checkRedisAtStart(redis, logger);
  const blobs = await openBlobStore(config, logger);
  const metrics = processMetrics();
  const pings = createRedis(redis, 'producer', { logger, connectionName: 'sha224d:worker-probe' });
  const probe = async (): Promise<Record<'redis' | 'blobs', boolean>> => {
    const [redis, blobStore] = await Promise.all([
      answersWithin(() => failFast(pings, () => pings.ping()), PROBE_TIMEOUT_MS),
      answersWithin(() => blobs.ping(), PROBE_TIMEOUT_MS),
    ]);
    return { redis, blobs: blobStore };
  };
  // Before taking any job: a metrics port that cannot be had (METRICS_PORT set and in use) stops
  // the worker at start, not after it has begun work it would then abandon.
  const listener = await startMetricsServer({
    host: config.METRICS_HOST,
    port: config.METRICS_PORT,
    token: config.METRICS_TOKEN,
    metrics,
    logger,
    ready: probe,
  });
  const webhooks = await startWorkerWebhooks(config, logger, metrics);
  const pool = await startBullMqWorkers({
    connection: redis,
    handlers: createJobHandlers({ allowLoopbackUrls: config.URL_FETCH_ALLOW_LOOPBACK }),
    blobs,
    queues: options.queues,
    concurrency: options.concurrency,
    logger,
    blobRetentionMs: blobRetentionMs(config),
    prefix: config.QUEUE_PREFIX,
    closeGraceMs: config.SHUTDOWN_GRACE_MS,
    lockDurationMs: config.WORKER_LOCK_MS,
    stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
    backoffMaxMs: config.JOB_BACKOFF_MAX_MS,
    maxStalledCount: config.JOB_MAX_STALLED_COUNT,
    metrics,
    ...(webhooks === undefined ? {} : { onJobFinished: webhooks.onJobFinished }),
  });
  // Bulk chunks (docs/api.md "Bulk jobs"): a queue of their own, BULK_CONCURRENCY at once; WORKER_BULK=false leaves them to other workers.
  const bulk = config.WORKER_BULK ? await startBulk(config, redis, blobs, logger) : undefined;
  // The persisted backstop of blob retention: deletes what the pool's timers could not (restarts, S3 outages).
  const sweep = startWorkerBlobSweep({ config, blobs, queues: options.queues, logger, ...(bulk ? { bulkStore: bulk.store } : {}) });
  metrics.collectors.add(
    cachedRefresh(async () => {
      const answers = await probe();
      setDependency(metrics, 'redis', answers.redis);
      setDependency(metrics, 'blobs', answers.blobs);
    }),
  );
  const stats = new BullMqQueueStats({ connection: redis, prefix: config.QUEUE_PREFIX, logger, queues: options.queues });
  metrics.collectors.add(stats.collector(metrics));
  const metricsPortFrom = config.METRICS_PORT === undefined ? 'default' : 'METRICS_PORT';
  logger.info(
    { role: 'worker', queues: options.queues, concurrency: options.concurrency, metricsPort: listener.port, metricsPortFrom },
    'sha224d worker started',
  );
  // The port is announced: with METRICS_PORT unset it is the first free one from 9091.
  const chosen = config.METRICS_PORT === undefined ? ` (METRICS_PORT unset: first free port from ${DEFAULT_METRICS_PORT})` : '';
  process.stdout.write(`sha224d worker metrics listening on http://${config.METRICS_HOST}:${listener.port}${chosen}\n`);
  process.stdout.write(`sha224d worker ready: queues ${options.queues.join(',')} concurrency ${options.concurrency}\n`);

  // SIGTERM: let active jobs finish (or hand them back when the grace runs out), then exit.
  // The listener stays up while jobs drain, so /metrics and /healthz answer until the end.
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => pool.close(),
    async () => bulk?.close(),
    async () => webhooks?.close(),
    async () => sweep?.close(),
    () => stats.close(),
    () => closeRedis(pings),
    () => listener.close(),
    () => blobs.close(),
  ]);
}

async function startBulk(
  config: ReturnType<typeof loadConfig>,
  redis: NonNullable<ReturnType<typeof loadConfig>['redis']>,
  blobs: Awaited<ReturnType<typeof openBlobStore>>,
  logger: ReturnType<typeof createLogger>,
): Promise<{ store: BulkStore; close(): Promise<void> }> {
  const store = await openRedisBulkStore(config, logger);
  const secrets = await openSecretBox(config);
  const worker = startBulkWorker({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.BULK_CONCURRENCY,
    lockDurationMs: config.WORKER_LOCK_MS,
    stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: config.JOB_MAX_STALLED_COUNT,
    store,
    blobs,
    process: createChunkProcessor({ allowLoopback: config.URL_FETCH_ALLOW_LOOPBACK, ...(secrets ? { secrets } : {}) }),
    logger,
  });
  return {
    store,
    async close() {
      await worker.close();
      await store.close();
    },
  };
}

main().catch((err: unknown) => {
  process.stderr.write(startFailureText('sha224d worker', err));
  process.exit(1);
});
