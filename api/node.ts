import { readFileSync } from 'node:fs';
import type { BlobStore } from '../shared/blob/types.js';
import type { Config } from '../shared/config.js';
import { openLimiter, openPlanCatalog } from '../shared/infra.js';
import type { Logger } from '../shared/log.js';
import type { Metrics } from '../shared/metrics/catalogue.js';
import type { JobQueue } from '../shared/queue/types.js';
import { cachedRefresh } from '../shared/metrics/cached.js';
import { setDependency } from '../shared/metrics/record.js';
import { onShutdown } from '../shared/shutdown.js';
import type { AccountStore } from '../shared/store/types.js';
import { composeApi } from './compose.js';
import type { ApiDeps } from './deps.js';
import { probeDependencies } from './readiness.js';
import { attachRealtime, type Realtime } from './realtime/index.js';
import { edgeOptions, serve, type Listeners } from './server.js';

export interface ApiNodeEngines {
  config: Config;
  logger: Logger;
  store: AccountStore;
  queue: JobQueue;
  blobs: BlobStore;
  /** Default: this process's registry. */
  metrics?: Metrics;
  /** Closed after the listeners and before the store (e.g. an in-process worker pool). */
  cleanups?: Array<() => Promise<void>>;
}

export interface ApiNode {
  deps: ApiDeps;
  listeners: Listeners;
  /** Base URL of the main listener, for messages. */
  baseUrl: string;
}

/**
 * Scrape-time gauges of an API node: its dependencies (one cached probe, as /readyz runs it; the
 * queue's ping is Redis's in distributed mode) and its realtime connections.
 */
function registerNodeCollectors(deps: ApiDeps, realtime: Realtime): void {
  const { metrics, config } = deps;
  metrics.collectors.add(
    cachedRefresh(async () => {
      const answers = await probeDependencies(deps);
      setDependency(metrics, 'store', answers.store);
      setDependency(metrics, 'blobs', answers.blobs);
      if (config.REDIS_URL) setDependency(metrics, 'redis', answers.queue);
    }),
  );
  metrics.collectors.add(() => {
    const open = realtime.connections();
    metrics.realtimeConnections.set({ transport: 'ws' }, open.ws);
    metrics.realtimeConnections.set({ transport: 'socketio' }, open.socketio);
  });
}

/**
 * Start an API node on its engines: limits, app, listeners (main, sandbox, HTTP→HTTPS redirect)
 * and graceful shutdown on SIGTERM. Shared by embedded mode and the distributed API role.
 */
export async function startApiNode(engines: ApiNodeEngines): Promise<ApiNode> {
  const { config, logger } = engines;
  const catalog = openPlanCatalog(config);
  const limits = openLimiter(config, engines.store, catalog, logger, engines.metrics);
  // Listen once the counters can answer: a request in the first instants would otherwise get 503.
  await limits.ready.catch((err: unknown) =>
    logger.warn({ err }, 'rate-limit counters unreachable at start; requests get 503 until they return'),
  );
  const { app, deps } = composeApi({ ...engines, limiter: limits.limiter, catalog, metrics: engines.metrics });
  const tls = config.TLS_CERT && config.TLS_KEY ? { cert: readFileSync(config.TLS_CERT), key: readFileSync(config.TLS_KEY) } : undefined;
  const listeners = await serve(app, {
    port: config.PORT,
    host: config.HOST,
    logger,
    edge: edgeOptions(config),
    publicUrl: config.PUBLIC_URL,
    tls,
    sandboxPort: config.SANDBOX_PORT,
    redirectPort: config.HTTP_REDIRECT_PORT,
  });
  const realtime = await attachRealtime(listeners, deps, {
    pingIntervalMs: config.WS_PING_INTERVAL_MS,
    maxMessageBytes: config.WS_MAX_MESSAGE_BYTES,
    maxInFlight: config.WS_MAX_IN_FLIGHT,
    maxInFlightBytes: Math.max(8 * config.WS_MAX_MESSAGE_BYTES, 8 * 1024 * 1024),
  });
  registerNodeCollectors(deps, realtime);
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const baseUrl = `${tls ? 'https' : 'http'}://${shownHost}:${listeners.main.port}`;

  // SIGTERM: stop accepting and finish in-flight requests, then close the engines.
  onShutdown(logger, config.SHUTDOWN_GRACE_MS, [
    // Upgraded (WebSocket) connections would hold the HTTP server open: close both together.
    async () => {
      await Promise.all([realtime.close(), listeners.close(config.SHUTDOWN_GRACE_MS)]);
    },
    ...(engines.cleanups ?? []),
    () => engines.queue.close(),
    () => limits.close(),
    () => engines.blobs.close(),
    () => engines.store.close(),
  ]);
  return { deps, listeners, baseUrl };
}
