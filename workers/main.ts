/**
 * A worker process of distributed mode: `npm run worker -- --queues file,stream --concurrency 8`
 * (or WORKER_QUEUES / WORKER_CONCURRENCY). Runs the shared core on jobs from BullMQ; scale by
 * starting more of them, sized per queue.
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../shared/config.js';
import { blobRetentionMs, openBlobStore } from '../shared/infra.js';
import { QUEUE_NAMES, type QueueName } from '../shared/jobs/contracts.js';
import { createLogger } from '../shared/log.js';
import { startBullMqWorkers } from '../shared/queue/bullmq-workers.js';
import { onShutdown } from '../shared/shutdown.js';
import { createJobHandlers } from './registry.js';

function parseQueues(value: string): QueueName[] {
  const names = value.split(',').map((q) => q.trim()).filter(Boolean);
  const unknown = names.filter((q) => !(QUEUE_NAMES as readonly string[]).includes(q));
  if (names.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`queues must be a comma-separated subset of ${QUEUE_NAMES.join(',')}`);
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
  if (!config.REDIS_URL) throw new Error('npm run worker needs REDIS_URL (embedded mode runs jobs in the npm start process)');

  const logger = createLogger(config.LOG_LEVEL);
  const blobs = await openBlobStore(config);
  const pool = await startBullMqWorkers({
    connection: config.REDIS_URL,
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
  });
  logger.info({ role: 'worker', queues: options.queues, concurrency: options.concurrency }, 'sha224d worker started');
  process.stdout.write(`sha224d worker ready: queues ${options.queues.join(',')} concurrency ${options.concurrency}\n`);

  // SIGTERM: let active jobs finish (or hand them back when the grace runs out), then exit.
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [() => pool.close(), () => blobs.close()]);
}

main().catch((err: unknown) => {
  process.stderr.write(`sha224d worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
