/**
 * Embedded mode (`npm start`): one process, in-process queue, SQLite and local disk under
 * DATA_DIR. A newcomer runs it with no other server. The API and the workers' handlers meet
 * here, the only place that depends on both.
 */
import { composeApi } from '../api/compose.js';
import { startServer } from '../api/server.js';
import { bootstrapAdmin } from '../shared/admin/bootstrap.js';
import { loadConfig } from '../shared/config.js';
import { blobRetentionMs, openAccountStore, openBlobStore, retentionMs } from '../shared/infra.js';
import { createLogger } from '../shared/log.js';
import { InProcessQueue } from '../shared/queue/in-process.js';
import { onShutdown } from '../shared/shutdown.js';
import { createJobHandlers } from '../workers/registry.js';

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
    blobRetentionMs: blobRetentionMs(config),
  });
  const { app } = composeApi({ config, logger, store, queue, blobs });
  const server = await startServer(app, { port: config.PORT, host: config.HOST, logger });
  const base = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${server.port}`;
  logger.info({ mode: 'embedded', port: server.port, dataDir: config.dataDir }, 'sha224d listening');
  // Embedded mode is for development: plain HTTP on localhost (issue 4 §6; TLS_CERT/TLS_KEY for HTTPS).
  process.stdout.write(`sha224d (embedded mode) listening on ${base} — plain HTTP, for local development\n`);

  if (config.BOOTSTRAP_ADMIN) {
    const admin = await bootstrapAdmin(store);
    if (admin) {
      // Shown once; only its hash is stored.
      process.stdout.write(
        `API key: ${admin.secret}\n` +
          `Try: curl -s -H "X-API-Key: ${admin.secret}" -H 'content-type: application/json' -d '{"data":"abc"}' ${base}/v2/hash\n`,
      );
    }
  }

  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    () => server.close(config.SHUTDOWN_GRACE_MS),
    () => queue.close(),
    () => blobs.close(),
    () => store.close(),
  ]);
}

main().catch((err: unknown) => {
  process.stderr.write(`sha224d failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
