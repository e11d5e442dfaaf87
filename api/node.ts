import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import { openLimiter, openPlanCatalog } from '../shared/infra.js';
import { cachedRefresh } from '../shared/metrics/cached.js';
import { setDependency } from '../shared/metrics/record.js';
import { onShutdown } from '../shared/shutdown.js';
import { composeApi } from './compose.js';
import { startBlobSweeper, type BlobSweeper } from '../shared/blob/sweep-schedule.js';
import { sweepResumableUploads } from '../shared/uploads/sweep.js';
import type { ApiDeps, ApiEngines } from './deps.js';
import { probeDependencies } from './readiness.js';
import { attachRealtime, loadRealtimeEngines, socketIoRequests, type Realtime, type RealtimeOptions } from './realtime/index.js';
import type { Listeners } from './http/listeners.js';
import { edgeOptions, serve } from './server.js';
import { expressMessageClasses } from './http/hot-path.js';

/** What only the tests' harness (test/helpers/api-server.ts) sets; a production node is built without any. */
export interface ApiNodeOptions {
  /** The certificate and key themselves, instead of reading the TLS_CERT and TLS_KEY files. */
  tls?: { cert: Buffer; key: Buffer };
  /**
   * Wraps the node's listener (the hot path in front of the app) before it listens (the tests hold
   * every answer against the OpenAPI document); `app` is the Express app behind it.
   */
  wrapApp?: (app: Express, listener: RequestListener) => RequestListener;
  /** Overrides of the realtime options the configuration gives; false: neither /v2/ws nor socket.io. */
  realtime?: Partial<RealtimeOptions> | false;
}

export interface ApiNode {
  deps: ApiDeps;
  listeners: Listeners;
  /** Undefined when built with `realtime: false`. */
  realtime: Realtime | undefined;
  /** Base URL of the main listener, for messages. */
  baseUrl: string;
  /**
   * The graceful stop, in order: listeners and realtime connections (SHUTDOWN_GRACE_MS for
   * in-flight requests), the engines' cleanups, queue, limiter, blobs, store.
   */
  stops: Array<() => Promise<void>>;
}

/**
 * Scrape-time gauges of an API node: its dependencies (one cached probe, as /readyz runs it; the
 * queue's ping is Redis's in distributed mode) and its realtime connections. Returns their removal.
 */
function registerNodeCollectors(deps: ApiDeps, realtime: Realtime | undefined): () => void {
  const { metrics, config } = deps;
  const collectors: Array<() => Promise<void> | void> = [
    cachedRefresh(async () => {
      const answers = await probeDependencies(deps);
      setDependency(metrics, 'store', answers.store);
      setDependency(metrics, 'blobs', answers.blobs);
      if (config.redis !== undefined) setDependency(metrics, 'redis', answers.queue);
    }),
  ];
  if (realtime) {
    collectors.push(() => {
      const open = realtime.connections();
      metrics.realtimeConnections.set({ transport: 'ws' }, open.ws);
      metrics.realtimeConnections.set({ transport: 'socketio' }, open.socketio);
    });
  }
  for (const collect of collectors) metrics.collectors.add(collect);
  return () => {
    for (const collect of collectors) metrics.collectors.delete(collect);
  };
}

/**
 * Build an API node on its engines and listen: limits, app, listeners (main, sandbox, HTTP→HTTPS
 * redirect) and realtime. Every node is built here: embedded mode, the distributed API role and
 * the tests' servers, so the tests run the wiring production runs.
 */
export async function buildApiNode(engines: ApiEngines, options: ApiNodeOptions = {}): Promise<ApiNode> {
  const { config, logger } = engines;
  const catalog = openPlanCatalog(config);
  const limits = await openLimiter(config, engines.store, catalog, logger, engines.metrics);
  // Listen once the counters can answer: a request in the first instants would otherwise get 503.
  await limits.ready.catch((err: unknown) =>
    logger.warn({ err }, 'rate-limit counters unreachable at start; requests get 503 until they return'),
  );
  const { app, listener, deps } = composeApi(engines, { limiter: limits.limiter, catalog });
  // Loaded before listening, so realtime attaches in the same turn the listeners open.
  const realtimeEngines = options.realtime === false ? undefined : await loadRealtimeEngines(config, logger);
  const tls =
    options.tls ??
    (config.TLS_CERT && config.TLS_KEY ? { cert: readFileSync(config.TLS_CERT), key: readFileSync(config.TLS_KEY) } : undefined);
  // socket.io is built on its first request (api/realtime/index.ts); until then its requests are set apart here.
  const handler = options.wrapApp?.(app, listener) ?? listener;
  const requests = socketIoRequests(handler);
  const listeners = await serve(realtimeEngines === undefined ? handler : requests.listener, {
    port: config.PORT,
    host: config.HOST,
    logger,
    edge: edgeOptions(config),
    publicUrl: config.PUBLIC_URL,
    tls,
    sandboxPort: config.SANDBOX_PORT,
    redirectPort: config.HTTP_REDIRECT_PORT,
    classes: expressMessageClasses(app),
  });
  const realtime =
    realtimeEngines === undefined
      ? undefined
      : await attachRealtime(listeners, deps, realtimeEngines, requests, {
          pingIntervalMs: config.WS_PING_INTERVAL_MS,
          maxMessageBytes: config.WS_MAX_MESSAGE_BYTES,
          maxInFlight: config.WS_MAX_IN_FLIGHT,
          maxInFlightBytes: Math.max(8 * config.WS_MAX_MESSAGE_BYTES, 8 * 1024 * 1024),
          ...options.realtime,
        });
  const unregisterCollectors = registerNodeCollectors(deps, realtime);
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const baseUrl = `${tls ? 'https' : 'http'}://${shownHost}:${listeners.main.port}`;

  const uploadSweep = startResumableSweep(config, deps, logger);
  const stops = [
    // Upgraded (WebSocket) connections would hold the HTTP server open: close both together.
    async () => {
      await Promise.all([realtime?.close(), listeners.close(config.SHUTDOWN_GRACE_MS)]);
      unregisterCollectors();
    },
    // The transparency log's checkpoint timer (docs/proving.md), if the log was opened.
    () => Promise.resolve(deps.proof.ready()?.close()),
    ...(engines.cleanups ?? []),
    () => engines.queue.close(),
    () => uploadSweep?.close() ?? Promise.resolve(),
    () => deps.resumable.close(),
    () => limits.close(),
    () => engines.blobs.close(),
    () => engines.store.close(),
  ];
  return { deps, listeners, realtime, baseUrl, stops };
}

/**
 * Every API node sweeps the bytes of expired resumable uploads (shared/uploads/sweep.ts) every
 * UPLOAD_EXPIRY_SWEEP_INTERVAL_SECONDS; a pass is idempotent, so nodes need not take turns. The
 * grace for segments a record does not list is BLOB_SWEEP_GRACE_SECONDS, as for job uploads.
 */
function startResumableSweep(config: ApiEngines['config'], deps: ApiNode['deps'], logger: ApiEngines['logger']): BlobSweeper | undefined {
  if (config.UPLOAD_EXPIRY_SWEEP_INTERVAL_SECONDS === 0) return undefined;
  return startBlobSweeper({
    intervalMs: config.UPLOAD_EXPIRY_SWEEP_INTERVAL_SECONDS * 1000,
    logger,
    sweep: (signal) =>
      sweepResumableUploads({ blobs: deps.blobs, store: deps.resumable, graceMs: config.BLOB_SWEEP_GRACE_SECONDS * 1000, logger, signal }),
  });
}

/** An API node of a process: built, then stopped gracefully on SIGTERM (shared/shutdown.ts). */
export async function startApiNode(engines: ApiEngines): Promise<ApiNode> {
  const node = await buildApiNode(engines);
  // SIGTERM: stop accepting and finish in-flight requests, then close the engines.
  onShutdown(engines.logger, engines.config.SHUTDOWN_GRACE_MS, node.stops);
  return node;
}
