import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type * as NodeHttps from 'node:https';
import type { RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import { loadConfig, type Config } from '../shared/config.js';
import type { Logger } from '../shared/log.js';
import { handleClientErrors } from './http/client-error.js';
import type { Listeners, RunningServer } from './http/listeners.js';
import { watchRequestTimeouts } from './http/request-timeouts.js';
import { answerPlainHttp } from './middleware/https-only.js';
import { SECURITY_HEADERS } from './http/security-headers.js';

/** The edge's time and connection bounds (shared/config.ts; docs/limits.md "Connections and timeouts"). */
export interface EdgeOptions {
  headersTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  wsHandshakeTimeoutMs: number;
  maxConnections: number;
}

export function edgeOptions(config: Config): EdgeOptions {
  return {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    bodyIdleTimeoutMs: config.BODY_IDLE_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    wsHandshakeTimeoutMs: config.WS_HANDSHAKE_TIMEOUT_MS,
    maxConnections: config.MAX_CONNECTIONS,
  };
}

/** The only path whose request may take longer than REQUEST_TIMEOUT_MS to arrive (docs/limits.md). */
const UNBOUNDED_PATH = '/v2/stream';

function serverOptions(edge: EdgeOptions): http.ServerOptions {
  return {
    headersTimeout: edge.headersTimeoutMs,
    // Route-aware total and idle bounds live in api/http/request-timeouts.ts.
    requestTimeout: 0,
    keepAliveTimeout: edge.keepAliveTimeoutMs,
    // How often Node checks headersTimeout (its default, 30 s, would make a 15 s bound 45 s).
    connectionsCheckingInterval: Math.max(20, Math.min(1000, Math.floor(edge.headersTimeoutMs / 4))),
  };
}

/**
 * node:https, loaded only for a node that serves TLS itself: with node:tls it is the largest part
 * of Node's own modules an embedded start compiled (~10-18 ms), for a listener most nodes never
 * open (docs/decisions.md "Speed").
 */
function nodeHttps(): typeof NodeHttps {
  return createRequire(import.meta.url)('node:https') as typeof NodeHttps;
}

/** The request and response classes the server makes (api/http/hot-path.ts expressMessageClasses). */
export type MessageClasses = Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

export function createServer(
  handler: RequestListener,
  edge: EdgeOptions,
  tls?: { cert: Buffer; key: Buffer },
  classes: MessageClasses = {},
): http.Server {
  return tls
    ? nodeHttps().createServer({ ...serverOptions(edge), ...classes, cert: tls.cert, key: tls.key }, handler)
    : http.createServer({ ...serverOptions(edge), ...classes }, handler);
}

export async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/**
 * A WebSocket upgrade must be answered (101 or a refusal) within `timeoutMs`, else its socket is
 * closed: authenticating a handshake awaits the store and the connection registry. Installed with
 * the first 'upgrade' listener, so a server with none keeps Node's default (the request is served
 * as a plain request).
 */
function boundHandshakes(server: http.Server, timeoutMs: number): void {
  const onUpgrade = (_req: http.IncomingMessage, socket: Duplex): void => {
    const written = (socket as Socket).bytesWritten;
    const timer = setTimeout(() => {
      if ((socket as Socket).bytesWritten === written) socket.destroy();
    }, timeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
  const onNewListener = (event: string | symbol): void => {
    if (event !== 'upgrade') return;
    server.off('newListener', onNewListener);
    server.prependListener('upgrade', onUpgrade);
  };
  server.on('newListener', onNewListener);
}

/**
 * Run `onRequest` once per request, before any other 'request' listener (they rewrite `req.url`
 * as they route). socket.io's engine takes over a server by removing every 'request' listener and
 * calling them itself for paths it does not serve: when that happens, `onRequest` is put back in
 * front, and a request it has already seen is not handled twice.
 */
function firstOnEveryRequest(server: http.Server, onRequest: (req: http.IncomingMessage, res: http.ServerResponse) => void): void {
  const seen = new WeakSet<http.IncomingMessage>();
  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (seen.has(req)) return;
    seen.add(req);
    onRequest(req, res);
  };
  let installing = false;
  const install = (): void => {
    installing = true;
    server.prependListener('request', listener);
    installing = false;
  };
  server.on('newListener', (event: string | symbol) => {
    if (event === 'request' && !installing && !server.listeners('request').includes(listener)) install();
  });
  install();
}

/**
 * Every bound of the edge on one listener: header, body-idle and total timeouts, keep-alive and
 * WebSocket handshake timeouts, the connection cap, JSON answers to parser-level refusals, and the
 * headers every response carries.
 */
function harden(server: http.Server, edge: EdgeOptions, logger: Logger): () => void {
  server.headersTimeout = edge.headersTimeoutMs;
  server.requestTimeout = 0;
  server.keepAliveTimeout = edge.keepAliveTimeoutMs;
  server.maxConnections = edge.maxConnections;
  let dropped = 0;
  server.on('drop', () => {
    // One warning per burst, not per connection.
    if (dropped++ === 0) logger.warn({ maxConnections: edge.maxConnections }, 'connection cap reached; closing new connections');
    setTimeout(() => (dropped = 0), 10_000).unref();
  });
  const watch = watchRequestTimeouts({
    bodyIdleMs: edge.bodyIdleTimeoutMs,
    requestMs: edge.requestTimeoutMs,
    // A tus PATCH (/v2/uploads/{id}) is a stream too: bounded by BODY_IDLE_TIMEOUT_MS only.
    unbounded: (req) =>
      (req.url ?? '').split('?', 1)[0]?.toLowerCase().replace(/\/+$/, '') === UNBOUNDED_PATH ||
      (req.method === 'PATCH' && /^\/v2\/uploads\/[^/?]+/i.test(req.url ?? '')),
  });
  const securityHeaders = Object.entries(SECURITY_HEADERS);
  firstOnEveryRequest(server, (req, res) => {
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    watch.track(req, res);
  });
  handleClientErrors(server, watch);
  boundHandshakes(server, edge.wsHandshakeTimeoutMs);
  return () => watch.stop();
}

export async function startServer(
  handler: RequestListener,
  options: { port: number; host: string; logger: Logger; server?: http.Server; edge?: EdgeOptions },
): Promise<RunningServer> {
  const edge = options.edge ?? edgeOptions(loadConfig({}));
  const server = options.server ?? createServer(handler, edge);
  const stopWatch = harden(server, edge, options.logger);
  const port = await listen(server, options.port, options.host);
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    close(graceMs) {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        // Every answer from now on tells its client not to reuse the connection (RFC 9112 §9.6),
        // and Node closes the connection once that answer is sent.
        // Before the app's own listener: a request it answers synchronously (/healthz) has sent its
        // headers by the time a later listener runs, and setHeader would throw ERR_HTTP_HEADERS_SENT.
        server.prependListener('request', (_req, res: http.ServerResponse) => {
          if (!res.headersSent) res.setHeader('Connection', 'close');
        });
        // Stop listening, and leave open connections to end on their own. http.Server#close would
        // also close every idle keep-alive connection, and Node counts as idle one whose next
        // request the client has already sent but the server has not read yet: closing it resets
        // that request unanswered, a failure no client may retry for a POST (RFC 9110 §9.2.2).
        // An idle connection instead gets its next answer with Connection: close, or reaches its
        // keep-alive timeout, which clients are told (Keep-Alive: timeout=…) and close before; the
        // grace bounds the rest.
        net.Server.prototype.close.call(server, () => {
          clearTimeout(force);
          stopWatch();
          resolve();
        });
      });
      return closing;
    },
  };
}

export interface ServeOptions {
  port: number;
  host: string;
  logger: Logger;
  edge: EdgeOptions;
  tls?: { cert: Buffer; key: Buffer };
  /** Second listener whose requests are sandbox requests ({sandbox_url} of docs/api.md "Overview"). */
  sandboxPort?: number;
  /** Plain-HTTP listener that redirects to HTTPS (TLS only). */
  redirectPort?: number;
  /** PUBLIC_URL: where redirects point; defaults to this node's own HTTPS address. */
  publicUrl?: string;
  /** What the main and sandbox listeners make their requests and responses with. */
  classes?: MessageClasses;
}

/** Start every listener of an API node: main (HTTP or HTTPS), sandbox, HTTP→HTTPS redirect. */
export async function serve(app: RequestListener, options: ServeOptions): Promise<Listeners> {
  const { edge, logger } = options;
  const make = (): http.Server => createServer(app, edge, options.tls, options.classes);
  const main = await startServer(app, { port: options.port, host: options.host, logger, server: make(), edge });
  const sandbox =
    options.sandboxPort === undefined
      ? undefined
      : await startServer(app, { port: options.sandboxPort, host: options.host, logger, server: make(), edge });
  let redirect: RunningServer | undefined;
  if (options.tls && options.redirectPort !== undefined) {
    // Never the request's Host: that would be an open redirect and a cache-poisoning vector.
    const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
    const publicUrl = options.publicUrl ?? new URL(`https://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${main.port}`).origin;
    redirect = await startServer((req, res) => answerPlainHttp(req, res, publicUrl), {
      port: options.redirectPort,
      host: options.host,
      logger,
      edge,
    });
  }
  return {
    main,
    sandbox,
    redirect,
    close: async (graceMs) => {
      await Promise.all([main.close(graceMs), sandbox?.close(graceMs), redirect?.close(graceMs)]);
    },
  };
}
