/**
 * socket.io on the HTTP server's port (path /socket.io, namespace /v2):
 *
 * - connect with `auth: { api_key }` (or the api_key query parameter); refused connections get a
 *   `connect_error` whose `data` is the v2 error body (UNAUTHORIZED, FORBIDDEN, TOO_MANY_CONNECTIONS);
 * - `hash` event, same payload as a /v2/ws message (`action` optional), acknowledged with the same
 *   reply shape (emitted as `result` when the client asked for no acknowledgement);
 * - `subscribe` event with a job id: acknowledged, then one `job` event with the GET /v2/jobs/{id}
 *   body when the job completes or fails (job-pushes.ts).
 *
 * Distributed mode installs the Redis adapter (socketio-redis-adapter.ts), so broadcasts and
 * fetchSockets() span API nodes.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type ExtendedError, type ServerOptions } from 'socket.io';
import { ServiceError } from '../../shared/errors.js';
import type { ApiDeps } from '../deps.js';
import { renderV2Error } from '../http/envelopes.js';
import { toServiceError } from '../http/error-handler.js';
import { originHost } from '../middleware/cors.js';
import type { ConnectionRegistry } from './connection-limit.js';
import { admitConnection, authenticateHandshake, handshakeAddress } from './handshake.js';
import { JobPushes, type LooseEvents, type RealtimeNamespace, type RealtimeSocket, type SocketData } from './job-pushes.js';
import type { RealtimeOptions } from './options.js';
import { SOCKET_IO_NAMESPACE, SOCKET_IO_PATH } from './paths.js';
import { errorReply, HashSession, type Reply } from './session.js';

export interface SocketIoEndpoint {
  /**
   * The request or upgrade that made this endpoint: created on socket.io's first request
   * (index.ts), its engine takes the later ones itself and this one is handed to it.
   */
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Open connections to the /v2 namespace on this node (metrics). */
  connections(): number;
  close(): Promise<void>;
}

function connectError(err: ServiceError): ExtendedError {
  const error: ExtendedError = new Error(err.message);
  error.data = renderV2Error(err);
  return error;
}

function credentialsOf(socket: RealtimeSocket): string[] {
  const found: string[] = [];
  const auth = socket.handshake.auth as Record<string, unknown> | undefined;
  if (typeof auth?.api_key === 'string') found.push(auth.api_key);
  const query: unknown = socket.handshake.query.api_key;
  if (typeof query === 'string') found.push(query);
  else if (Array.isArray(query)) found.push(...query.filter((q): q is string => typeof q === 'string'));
  return found;
}

/** (payload, ack) as sent by `emit(event, payload, ack)`, `emit(event, ack)` or `emit(event, payload)`. */
function splitArgs(args: unknown[]): { payload: unknown; ack: ((reply: Reply) => void) | undefined } {
  const last = args[args.length - 1];
  const ack = typeof last === 'function' ? (last as (reply: Reply) => void) : undefined;
  return { payload: ack && args.length === 1 ? undefined : args[0], ack };
}

/** A socket.io adapter and the connections under it (socketio-redis-adapter.ts in distributed mode). */
export interface SocketIoAdapter {
  /** The adapter's constructor, its package imported on the first call (socketio-redis-adapter.ts). */
  factory(): Promise<SocketIoAdapterFactory>;
  close(): Promise<void>;
}

export type SocketIoAdapterFactory = NonNullable<ServerOptions['adapter']>;

/** What createSocketIoEndpoint installs: the adapter with its factory loaded. */
export interface LoadedSocketIoAdapter {
  factory: SocketIoAdapterFactory;
  close(): Promise<void>;
}

/**
 * `adapter`: socket.io's in-memory adapter when undefined (one node); distributed mode passes the
 * Redis one (engines.ts).
 */
export function createSocketIoEndpoint(
  httpServer: HttpServer,
  deps: ApiDeps,
  registry: ConnectionRegistry,
  options: RealtimeOptions,
  adapter?: LoadedSocketIoAdapter,
): SocketIoEndpoint {
  const { logger } = deps;
  let closing: Promise<void> | undefined;
  const io = new Server<LooseEvents, LooseEvents, LooseEvents, SocketData>(httpServer, {
    path: SOCKET_IO_PATH,
    serveClient: false,
    // /v2/ws upgrades on the same server are not engine.io's to destroy.
    destroyUpgrade: false,
    maxHttpBufferSize: options.maxMessageBytes,
    pingInterval: options.pingIntervalMs,
    pingTimeout: Math.min(20_000, options.pingIntervalMs),
    // Polling from a browser needs CORS; only origins some client key allows get it.
    cors: {
      origin: (origin, callback) => {
        const host = origin === undefined ? undefined : originHost(origin);
        if (host === undefined) return callback(null, false);
        deps.anyClientKeyAllows(host).then(
          (allowed) => callback(null, allowed),
          () => callback(null, false),
        );
      },
    },
  });

  if (adapter) io.adapter(adapter.factory);

  // The main namespace serves nothing: say where to go rather than accept a silent connection.
  io.use((_socket, next) =>
    next(connectError(new ServiceError('NOT_FOUND', { details: `connect to the ${SOCKET_IO_NAMESPACE} namespace` }))),
  );

  const nsp: RealtimeNamespace = io.of(SOCKET_IO_NAMESPACE);
  const jobs = new JobPushes(nsp, deps, options);

  nsp.use((socket, next) => {
    void (async () => {
      if (closing) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the server is shutting down' });
      const principal = await authenticateHandshake(
        deps,
        { credentials: credentialsOf(socket), origin: socket.handshake.headers.origin, address: handshakeAddress(deps, socket.request) },
        ['hash', 'jobs'],
      );
      const lease = await admitConnection(deps, registry, principal);
      const release = (): void => void lease.release();
      socket.conn.once('close', release);
      socket.once('disconnect', release);
      socket.data = { principal, session: new HashSession(deps, principal, options, 'socket.io') };
    })().then(
      () => next(),
      (err: unknown) => {
        const error = toServiceError(err);
        if (error.status >= 500) logger.error({ err: error.cause ?? err }, 'socket.io connection failed');
        next(connectError(error));
      },
    );
  });

  /** A client that does not read its replies is dropped once this many packets wait for it. */
  const backlogOf = (socket: RealtimeSocket): number => (socket.conn as unknown as { writeBuffer?: unknown[] }).writeBuffer?.length ?? 0;

  function respond(socket: RealtimeSocket, event: string, reply: Reply, ack: ((reply: Reply) => void) | undefined): void {
    if (!socket.connected) return;
    if (ack) ack(reply);
    else socket.emit(event, reply);
    if (backlogOf(socket) > options.maxQueuedPackets) {
      logger.warn({ accountId: socket.data.principal.accountId }, 'socket.io client does not read its replies; disconnecting');
      socket.disconnect(true);
    }
  }

  nsp.on('connection', (socket: RealtimeSocket) => {
    socket.on('hash', (...args: unknown[]) => {
      const { payload, ack } = splitArgs(args);
      const data = (payload as { data?: unknown } | undefined)?.data;
      const bytes = typeof data === 'string' ? data.length : 0;
      void socket.data.session.handle({ parsed: true, value: payload }, bytes).then((reply) => respond(socket, 'result', reply, ack));
    });
    socket.on('subscribe', (...args: unknown[]) => {
      const { payload, ack } = splitArgs(args);
      jobs.subscribe(socket, payload).then(
        (reply) => respond(socket, 'subscribed', reply, ack),
        (err: unknown) => respond(socket, 'subscribed', errorReply(null, toServiceError(err)), ack),
      );
    });
  });

  async function shutdown(): Promise<void> {
    jobs.close();
    const sockets = [...nsp.sockets.values()];
    await Promise.race([
      Promise.all(sockets.map((socket) => socket.data.session?.idle())),
      new Promise((resolve) => setTimeout(resolve, options.closeGraceMs).unref()),
    ]);
    // Local only: with the Redis adapter, disconnectSockets() would reach every node's clients.
    nsp.local.disconnectSockets(true);
    // Not io.close(): it would also close the HTTP server, which the listeners close gracefully.
    io.engine.close();
    await Promise.resolve(nsp.adapter.close());
    await adapter?.close();
  }

  return {
    handleRequest: (req, res) => io.engine.handleRequest(req, res),
    handleUpgrade: (req, socket, head) => io.engine.handleUpgrade(req, socket, head),
    connections: () => nsp.sockets.size,
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
