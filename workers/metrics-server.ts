/**
 * A worker's small HTTP listener (docs/operating.md "Where they are served"): /metrics (bearer
 * guarded when METRICS_TOKEN is set), /healthz (answers without touching a dependency, so a Redis
 * outage never restarts pods) and /readyz (Redis and the blob store each answer a ping).
 */
import http from 'node:http';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from '../shared/log.js';
import type { Metrics } from '../shared/metrics/catalogue.js';
import { metricsAccess, renderMetrics } from '../shared/metrics/exposition.js';

export interface MetricsServerOptions {
  host: string;
  port: number;
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
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
