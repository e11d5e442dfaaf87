/**
 * The realtime interfaces of an API node, on its main listener's port: WebSocket /v2/ws and
 * socket.io (namespace /v2). docs/realtime.md describes the protocol and its decisions.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../../shared/errors.js';
import type { ApiDeps } from '../deps.js';
import type { Listeners } from '../server.js';
import type { RealtimeEngines } from './engines.js';
import { resolveRealtimeOptions, type RealtimeOptions } from './options.js';
import { createSocketIoEndpoint, SOCKET_IO_PATH } from './socketio.js';
import { createWebSocketEndpoint, refuseUpgrade, WS_PATH, type WebSocketStats } from './websocket.js';

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
 * Attach /v2/ws and socket.io to the main listener. The sandbox listener gets neither: it serves
 * /v1 only (SPEC "Versioning"). `engines` come from loadRealtimeEngines, loaded before the
 * listeners open so that attaching takes no wait: no upgrade meets a server without its handler.
 */
export function attachRealtime(
  listeners: Pick<Listeners, 'main'>,
  deps: ApiDeps,
  engines: RealtimeEngines,
  overrides: Partial<RealtimeOptions> = {},
): Promise<Realtime> {
  try {
    return Promise.resolve(attach(listeners, deps, engines, overrides));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

function attach(
  listeners: Pick<Listeners, 'main'>,
  deps: ApiDeps,
  engines: RealtimeEngines,
  overrides: Partial<RealtimeOptions>,
): Realtime {
  const options = resolveRealtimeOptions(overrides);
  const server = listeners.main.server;
  const registry = engines.connectionRegistry(options);

  const ws = createWebSocketEndpoint(deps, registry, options);
  const io = createSocketIoEndpoint(server, deps, registry, options, engines.socketIoAdapter());

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === WS_PATH) return ws.handleUpgrade(req, socket, head);
    // engine.io's own upgrade listener takes these.
    if (path?.startsWith(`${SOCKET_IO_PATH}/`)) return;
    socket.on('error', () => undefined);
    refuseUpgrade(
      socket,
      new ServiceError('NOT_FOUND', { details: `WebSocket endpoints: ${WS_PATH}, ${SOCKET_IO_PATH}/ (namespace /v2)` }),
    );
  };
  server.on('upgrade', onUpgrade);

  let closing: Promise<void> | undefined;
  return {
    stats: () => ws.stats(),
    connections: () => ({ ws: ws.stats().connections, socketio: io.connections() }),
    close() {
      closing ??= (async () => {
        // The upgrade listener stays: /v2/ws upgrades are now refused with 503.
        const results = await Promise.allSettled([ws.close(), io.close()]);
        results.push(...(await Promise.allSettled([registry.close()])));
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) deps.logger.warn({ err: failed.reason as unknown }, 'realtime close step failed');
      })();
      return closing;
    },
  };
}
