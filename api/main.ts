/**
 * The API role of distributed mode (`npm run api`): a thin node that authenticates, enqueues onto
 * BullMQ and waits for results. Run any number of them behind a balancer; workers run separately
 * (`npm run worker`).
 */
import { loadConfig } from '../shared/config.js';
import { openAccountStore, openBlobStore, retentionMs } from '../shared/infra.js';
import { createLogger } from '../shared/log.js';
import { BullMqJobQueue } from '../shared/queue/bullmq-queue.js';
import { startApiNode } from './node.js';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.REDIS_URL) throw new Error('npm run api is the distributed API role and needs REDIS_URL; for one process use npm start');
  const logger = createLogger(config.LOG_LEVEL);
  const store = await openAccountStore(config);
  const blobs = await openBlobStore(config);
  const queue = new BullMqJobQueue({ connection: config.REDIS_URL, retentionMs: retentionMs(config), logger, prefix: config.QUEUE_PREFIX });
  const node = await startApiNode({ config, logger, store, queue, blobs });
  logger.info({ mode: 'distributed', role: 'api', port: node.listeners.main.port }, 'sha224d api listening');
  process.stdout.write(`sha224d api listening on ${node.baseUrl}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`sha224d api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
