/**
 * A worker's small HTTP listener (docs/operating.md "Where they are served"): /metrics (bearer
 * guarded when METRICS_TOKEN is set), /healthz (answers without touching a dependency, so a Redis
 * outage never restarts pods) and /readyz (Redis and the blob store each answer a ping).
 *
 * Its port (docs/decisions.md "Operating: metrics contract, alerts, dashboard, Kubernetes"): with
 * METRICS_PORT unset, 9091 or the next free port up to 9190, so several workers started on one
 * host with the defaults each get one; with METRICS_PORT set, that port or a start error naming
 * the setting.
 */
import http from 'node:http';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from '../shared/log.js';
import type { Metrics } from '../shared/metrics/catalogue.js';
import { metricsAccess, renderMetrics } from '../shared/metrics/exposition.js';

/** The first port tried when METRICS_PORT is unset, and the last. */
export const DEFAULT_METRICS_PORT = 9091;
export const LAST_DEFAULT_METRICS_PORT = 9190;

export interface MetricsServerOptions {
  host: string;
  /** METRICS_PORT as set (0 picks any free port); undefined → the first free one from DEFAULT_METRICS_PORT. */
  port: number | undefined;
  token: string | undefined;
  metrics: Metrics;
  logger: Logger;
  /** Each dependency's answer to a ping (bounded in time by the caller). */
  ready: () => Promise<Record<string, boolean>>;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Loopback: 127.0.0.0/8, ::1 (IPv4-mapped forms included) or the name localhost. */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 0) return false;
  const parsed = ipaddr.parse(bare);
  const address = parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  return address.range() === 'loopback';
}

/**
 * Metrics reachable from other hosts must not be public: refuse to start on a non-loopback
 * address (0.0.0.0 included) without a token, naming both settings.
 */
export function assertMetricsBinding(host: string, token: string | undefined): void {
  if (token === undefined && !isLoopbackHost(host)) {
    throw new Error(`METRICS_HOST=${host} is not a loopback address: set METRICS_TOKEN so /metrics is not public, or bind to 127.0.0.1`);
  }
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

function errorBody(code: string, message: string): unknown {
  return { success: false, error: { code, message, details: '' } };
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  assertMetricsBinding(options.host, options.token);
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return json(res, 405, errorBody('METHOD_NOT_ALLOWED', 'Method not allowed on this endpoint'), { Allow: 'GET, HEAD' });
    }
    switch (path) {
      case '/healthz':
        return json(res, 200, { status: 'ok' });
      case '/readyz': {
        const answers = await options.ready();
        const ready = Object.values(answers).every(Boolean);
        const checks = Object.fromEntries(Object.entries(answers).map(([name, ok]) => [name, ok ? 'ok' : 'failed']));
        return json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks });
      }
      case '/metrics': {
        if (metricsAccess(req.headers.authorization, options.token, false) !== 'allowed') {
          return json(res, 401, errorBody('UNAUTHORIZED', 'Invalid or missing metrics token'), {
            'WWW-Authenticate': 'Bearer realm="metrics"',
          });
        }
        const { contentType, body } = await renderMetrics(options.metrics);
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        res.end(body);
        return;
      }
      default:
        return json(res, 404, errorBody('NOT_FOUND', 'Resource or endpoint does not exist'));
    }
  };
  const createServer = (): http.Server => {
    const server = http.createServer((req, res) => {
      handle(req, res).catch((err: unknown) => {
        options.logger.error({ err }, 'metrics listener failed');
        if (!res.headersSent) json(res, 500, errorBody('INTERNAL_ERROR', 'Internal error'));
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 5_000;
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    return server;
  };
  const server = await listenOnMetricsPort(createServer, options.host, options.port);
  let closing: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function inUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/** A listening server on the port the rule in this file's header gives; a new server per port tried. */
async function listenOnMetricsPort(createServer: () => http.Server, host: string, port: number | undefined): Promise<http.Server> {
  if (port !== undefined) {
    const server = createServer();
    try {
      await listen(server, port, host);
    } catch (err) {
      if (!inUse(err)) throw err;
      throw new Error(
        `METRICS_PORT=${port} is already in use on ${host}: give each worker on this host its own METRICS_PORT, or leave it unset to take the first free port from ${DEFAULT_METRICS_PORT}`,
        { cause: err },
      );
    }
    return server;
  }
  for (let candidate = DEFAULT_METRICS_PORT; ; candidate++) {
    const server = createServer();
    try {
      await listen(server, candidate, host);
      return server;
    } catch (err) {
      if (!inUse(err)) throw err;
      if (candidate === LAST_DEFAULT_METRICS_PORT) {
        throw new Error(
          `no free metrics port from ${DEFAULT_METRICS_PORT} to ${LAST_DEFAULT_METRICS_PORT} on ${host}: set METRICS_PORT (0 picks any free port)`,
          { cause: err },
        );
      }
    }
  }
}
