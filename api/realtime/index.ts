/**
 * The realtime interfaces of an API node, on its main listener's port: WebSocket /v2/ws and
 * socket.io (namespace /v2). docs/realtime.md describes the protocol and its decisions.
 *
 * Both are built on their first use, not at start: `ws` on the first /v2/ws upgrade, socket.io and
 * its engine on the first request or upgrade under /socket.io/ (docs/decisions.md "Cold start").
 * Their routing is in place before the listener opens, so no upgrade meets a server without a
 * handler and long-polling requests under /socket.io/ reach socket.io from the first one.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../../shared/errors.js';
import type { ApiDeps } from '../deps.js';
import type { Listeners } from '../http/listeners.js';
import { endWithError } from '../http/raw-response.js';
import { onFirstUse, type FirstUse } from '../lazy.js';
import type { RealtimeEngines } from './engines.js';
import { resolveRealtimeOptions, type RealtimeOptions } from './options.js';
import { isSocketIoTarget, SOCKET_IO_PATH, WS_PATH } from './paths.js';
import { refuseUpgrade } from './refuse-upgrade.js';
import type { SocketIoEndpoint } from './socketio.js';
import type { WebSocketEndpoint, WebSocketStats } from './websocket.js';

export type { RealtimeOptions } from './options.js';
export { loadRealtimeEngines, type RealtimeEngines } from './engines.js';

export interface Realtime {
  /** /v2/ws counters (tests, metrics). */
  stats(): WebSocketStats;
  /** Open connections on this node by transport (sha224d_realtime_connections). */
  connections(): { ws: number; socketio: number };
  /** Refuse new connections, answer what is in flight, close every connection. Idempotent. */
  close(): Promise<void>;
}

/**
 * The node's request listener with socket.io's HTTP requests set apart: until socket.io exists
 * (its engine then takes them before any other listener, as it does for a server it attaches to),
 * a request under /socket.io/ goes to the handler attachRealtime installs; before that, and on a
 * node without realtime, to the app like any other.
 */
export interface SocketIoRequests {
  listener: RequestListener;
  serve(handler: RequestListener): void;
}

export function socketIoRequests(app: RequestListener): SocketIoRequests {
  let handler: RequestListener | undefined;
  return {
    listener: (req, res) => {
      if (handler !== undefined && isSocketIoTarget(req.url)) handler(req, res);
      else app(req, res);
    },
    serve: (h) => {
      handler = h;
    },
  };
}

/**
 * Attach /v2/ws and socket.io to the main listener. The sandbox listener gets neither: it serves
 * /v1 only (docs/api.md "Versioning"). `engines` come from loadRealtimeEngines, loaded before the
 * listeners open so that attaching takes no wait: no upgrade meets a server without its handler.
 */
export function attachRealtime(
  listeners: Pick<Listeners, 'main'>,
  deps: ApiDeps,
  engines: RealtimeEngines,
  requests: SocketIoRequests,
  overrides: Partial<RealtimeOptions> = {},
): Promise<Realtime> {
  try {
    return Promise.resolve(attach(listeners, deps, engines, requests, overrides));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

const shuttingDown = (): ServiceError => new ServiceError('SERVICE_UNAVAILABLE', { details: 'the server is shutting down' });

function attach(
  listeners: Pick<Listeners, 'main'>,
  deps: ApiDeps,
  engines: RealtimeEngines,
  requests: SocketIoRequests,
  overrides: Partial<RealtimeOptions>,
): Realtime {
  const options = resolveRealtimeOptions(overrides);
  const server = listeners.main.server;
  const registry = engines.connectionRegistry(options);
  // Distributed mode's Redis adapter connects at start, as the registry does: a socket.io built on
  // its first request then finds them ready (a shutdown right after would otherwise cut its
  // subscription off mid-connect).
  const adapter = engines.socketIoAdapter();
  let closing: Promise<void> | undefined;

  const ws = onFirstUse<WebSocketEndpoint>('/v2/ws', deps.logger, async () => {
    const { createWebSocketEndpoint } = await import('./websocket.js');
    return createWebSocketEndpoint(deps, registry, options);
  });
  // Created in the turn its module arrives: from then on its engine serves /socket.io/ itself.
  const io = onFirstUse<SocketIoEndpoint>('socket.io', deps.logger, async () => {
    const [{ createSocketIoEndpoint }, factory] = await Promise.all([import('./socketio.js'), adapter?.factory()]);
    return createSocketIoEndpoint(
      server,
      deps,
      registry,
      options,
      adapter && factory ? { factory, close: () => adapter.close() } : undefined,
    );
  });

  /** An upgrade whose endpoint is not built yet: its socket waits (Node reads nothing from it meanwhile). */
  const upgradeOnceLoaded = (
    endpoint: FirstUse<{ handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void }>,
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): void => {
    // A peer that resets the connection while it waits must not stop the process.
    socket.on('error', () => undefined);
    if (closing) return refuseUpgrade(socket, shuttingDown(), req.url);
    endpoint.get().then(
      (loaded) => loaded.handleUpgrade(req, socket, head),
      () => refuseUpgrade(socket, new ServiceError('SERVICE_UNAVAILABLE'), req.url),
    );
  };

  requests.serve((req: IncomingMessage, res: ServerResponse) => {
    if (closing) return endWithError(res, shuttingDown(), req.url);
    io.get().then(
      (loaded) => loaded.handleRequest(req, res),
      () => endWithError(res, new ServiceError('SERVICE_UNAVAILABLE'), req.url),
    );
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === WS_PATH) {
      const endpoint = ws.ready();
      return endpoint ? endpoint.handleUpgrade(req, socket, head) : upgradeOnceLoaded(ws, req, socket, head);
    }
    if (isSocketIoTarget(req.url)) {
      // Once socket.io exists, engine.io's own upgrade listener takes these.
      return io.ready() ? undefined : upgradeOnceLoaded(io, req, socket, head);
    }
    socket.on('error', () => undefined);
    refuseUpgrade(
      socket,
      new ServiceError('NOT_FOUND', { details: `WebSocket endpoints: ${WS_PATH}, ${SOCKET_IO_PATH}/ (namespace /v2)` }),
      WS_PATH,
    );
  };
  server.on('upgrade', onUpgrade);

  const closeIfBuilt = async (endpoint: FirstUse<{ close(): Promise<void> }>): Promise<void> => {
    await (await endpoint.settled())?.close();
  };

  return {
    stats: () => ws.ready()?.stats() ?? { connections: 0, paused: 0, received: 0 },
    connections: () => ({ ws: ws.ready()?.stats().connections ?? 0, socketio: io.ready()?.connections() ?? 0 }),
    close() {
      closing ??= (async () => {
        // The upgrade listener stays: /v2/ws upgrades are now refused with 503.
        const results = await Promise.allSettled([
          closeIfBuilt(ws),
          // A socket.io endpoint closes its adapter; one never built leaves it to us.
          io.settled().then((built) => (built ? built.close() : adapter?.close())),
        ]);
        results.push(...(await Promise.allSettled([registry.close()])));
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) deps.logger.warn({ err: failed.reason as unknown }, 'realtime close step failed');
      })();
      return closing;
    },
  };
}
