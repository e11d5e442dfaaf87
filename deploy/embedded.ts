/**
 * Embedded mode (`npm start`): one process, in-process queue, SQLite and local disk under
 * DATA_DIR, limits in memory. A newcomer runs it with no other server. The API and the workers'
 * handlers meet here, the only place that depends on both.
 */
import { startApiNode } from '../api/node.js';
import { afterFirstAnswer } from '../api/http/after-first-answer.js';
import path from 'node:path';
import { adminCommand, bootstrapFirstStart, firstStartText } from '../shared/accounts/first-start.js';
import { loadConfig } from '../shared/config.js';
import { startBlobSweeper } from '../shared/blob/sweep-schedule.js';
import { sweepBlobs } from '../shared/blob/sweep.js';
import { blobRetentionMs, openAccountStore, openBlobStore, retentionMs } from '../shared/infra.js';
import { createLogger } from '../shared/log.js';
import { processMetrics } from '../shared/metrics/catalogue.js';
import { setQueueFigures } from '../shared/metrics/record.js';
import { InProcessQueue } from '../shared/queue/in-process.js';
import { createJobHandlers } from '../workers/registry.js';
import { proofFirstStartText } from '../shared/proof/first-start.js';
import { startLocalWebhooks } from '../shared/webhooks/local.js';
import { webhookMetrics } from '../shared/webhooks/metrics.js';
import { openEmbeddedBulk } from '../shared/bulk/open.js';
import { sweepBulkBlobs } from '../shared/bulk/sweep.js';
import { openSecretBox } from '../shared/webhooks/secrets-key.js';
import { createChunkProcessor } from '../workers/bulk/process.js';
import { startFailureText } from '../shared/start-failure.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const store = await openAccountStore(config);
  const blobs = await openBlobStore(config);
  await blobs.ping();
  const queue = new InProcessQueue({
    handlers: createJobHandlers({ allowLoopbackUrls: config.URL_FETCH_ALLOW_LOOPBACK }),
    blobs,
    logger,
    concurrency: config.WORKER_CONCURRENCY,
    retentionMs: retentionMs(config),
    maxWaiting: config.QUEUE_MAX_WAITING,
    metrics: processMetrics(),
    blobRetentionMs: blobRetentionMs(config),
  });
  // Bulk jobs' chunks run in this process, apart from the job queue's slots (shared/bulk/chunks.ts).
  const secrets = await openSecretBox(config);
  const processor = createChunkProcessor({ allowLoopback: config.URL_FETCH_ALLOW_LOOPBACK, ...(secrets ? { secrets } : {}) });
  const bulk = openEmbeddedBulk(config, blobs, logger, processor);
  const metrics = processMetrics();
  metrics.collectors.add(() => {
    for (const [name, figures] of queue.figures()) setQueueFigures(metrics, name, figures);
  });
  // The persisted backstop of blob retention (shared/blob/sweep.ts); one process, so no lock.
  const sweeper =
    config.BLOB_SWEEP_INTERVAL_SECONDS === 0
      ? undefined
      : startBlobSweeper({
          intervalMs: config.BLOB_SWEEP_INTERVAL_SECONDS * 1000,
          logger,
          sweep: async (signal) => {
            await sweepBlobs({
              blobs,
              liveBlobKeys: () => Promise.resolve(queue.liveBlobKeys()),
              retentionMs: blobRetentionMs(config),
              graceMs: config.BLOB_SWEEP_GRACE_SECONDS * 1000,
              logger,
              signal,
            });
            // Bulk jobs' inputs and results once their job's record has expired (shared/bulk/sweep.ts).
            await sweepBulkBlobs({ blobs, store: bulk.store, graceMs: config.BLOB_SWEEP_GRACE_SECONDS * 1000, logger, signal });
          },
        });
  const cleanups = sweeper === undefined ? [] : [() => sweeper.close()];
  // Pending deliveries live in SQLite: the dispatcher's first pass resumes any a restart left.
  const webhooks = await startLocalWebhooks({ config, db: store.db, queue, logger, metrics: webhookMetrics(metrics.registry) });
  if (webhooks !== undefined) cleanups.push(() => webhooks.close());
  cleanups.push(() => bulk.chunks.close());
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
  logger.info({ mode: 'embedded', port: node.listeners.main.port, dataDir: config.dataDir }, 'sha224d listening');
  const plain = node.baseUrl.startsWith('http:');
  // Embedded mode may serve plain HTTP on localhost for development, and says so.
  process.stdout.write(
    `sha224d (embedded mode) listening on ${node.baseUrl}${plain ? ' — plain HTTP, for local development (set TLS_CERT/TLS_KEY for HTTPS)' : ''}\n`,
  );
  if (node.listeners.sandbox) process.stdout.write(`sandbox listening on port ${node.listeners.sandbox.port}\n`);

  if (config.BOOTSTRAP_ADMIN) {
    const baseUrl = config.PUBLIC_URL ?? node.baseUrl;
    const started = await bootstrapFirstStart(store, { email: config.ADMIN_EMAIL, baseUrl });
    // Shown once; only the key's hash is stored. The bundle's parent is the package root, where `npm run admin` runs.
    if (started) process.stdout.write(firstStartText(started, node.baseUrl, adminCommand(config, path.dirname(import.meta.dirname))));
  }

  // Proof of existence (docs/proving.md): the log's and the TSA's keys are made at first start and
  // announced once; after the first-start text, so nothing waits for it. Opened once the first
  // request has been answered (or a second after listening): loading the ASN.1 libraries of the
  // time-stamp authority took a fifth of a cold start's CPU, ahead of the first request
  // (docs/decisions.md "Speed").
  afterFirstAnswer(node.listeners.main.server, PROOF_OPEN_DELAY_MS, () => {
    node.deps.proof.get().then(
      (proof) => {
        if (proof.created.logKey || proof.created.tsa) process.stdout.write(proofFirstStartText(proof, node.baseUrl, config.dataDir));
      },
      (err: unknown) => logger.error({ err }, 'the proof services failed to open'),
    );
  });
}

const PROOF_OPEN_DELAY_MS = 1000;

main().catch((err: unknown) => {
  process.stderr.write(startFailureText('sha224d', err));
  process.exit(1);
});
