/**
 * WebSocket /v2/ws (docs/api.md "WebSocket") with the `ws` library, on the HTTP server's port.
 *
 * - The upgrade is answered only after authentication, permission, Origin (client keys) and the
 *   plan's connection limit pass; otherwise it is refused with the HTTP status and the v2 error
 *   body (401, 403, 429 TOO_MANY_CONNECTIONS, 503).
 * - Each text or binary message is one JSON request; its reply is pushed when its job finishes
 *   (out of order; `id` correlates). Bad messages are answered and the connection stays open.
 * - A message over `maxMessageBytes` closes the connection with 1009 (the `ws` maxPayload check,
 *   enforced on the bytes as they arrive, before any buffering of the whole message).
 * - Backpressure: at most `maxInFlight` messages in processing (the excess is answered at once
 *   with RATE_LIMIT_EXCEEDED), and while more than `sendHighWaterBytes` of replies wait to be
 *   sent the socket is not read, so a client that does not read its replies is slowed by TCP.
 * - Ping every `pingIntervalMs`; a peer that neither answered the previous ping nor took any of the
 *   data sent to it since is terminated.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { ApiDeps } from '../deps.js';
import { toServiceError } from '../http/error-handler.js';
import type { ConnectionLease, ConnectionRegistry } from './connection-limit.js';
import { admitConnection, authenticateHandshake, handshakeAddress } from './handshake.js';
import type { RealtimeOptions } from './options.js';
import { refuseUpgrade } from './refuse-upgrade.js';
import { HashSession, parseIncoming, type Reply } from './session.js';

interface Connection {
  ws: WebSocket;
  /** The upgraded TCP socket under `ws`, corked while one turn's replies are written. */
  socket: Duplex;
  session: HashSession;
  /** A pong, or sent data taken by the peer, since the last ping round. */
  alive: boolean;
  /** The socket is corked until the end of this turn (see send). */
  corked: boolean;
  /** The send callback of every reply on this connection (one function per connection, not per message). */
  sent: () => void;
}

export interface WebSocketStats {
  connections: number;
  /** Connections not being read because their replies wait to be sent. */
  paused: number;
  /** Messages received since start. */
  received: number;
}

export interface WebSocketEndpoint {
  /** An upgrade request for /v2/ws (paths.ts WS_PATH). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Counters (tests, metrics). */
  stats(): WebSocketStats;
  /** Refuse new upgrades, let in-flight messages finish (up to closeGraceMs), close with 1001. */
  close(): Promise<void>;
}

/**
 * The opening handshake's own rules (RFC 6455 §4.2.1), checked before authentication so a
 * malformed upgrade costs no lookup and is refused in the v2 envelope rather than in `ws`'s text.
 */
function assertHandshake(req: IncomingMessage): void {
  if (req.method !== 'GET') throw new ServiceError('METHOD_NOT_ALLOWED', { details: `${req.method ?? ''} is not allowed; use GET` });
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key.trim())) {
    throw new ServiceError('INVALID_INPUT', {
      message: 'Missing or invalid Sec-WebSocket-Key header',
      details: 'header: sec-websocket-key',
    });
  }
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    throw new ServiceError('INVALID_INPUT', { message: 'Sec-WebSocket-Version must be 13', details: 'header: sec-websocket-version' });
  }
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

export function createWebSocketEndpoint(deps: ApiDeps, registry: ConnectionRegistry, options: RealtimeOptions): WebSocketEndpoint {
  const { logger } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes, clientTracking: false, perMessageDeflate: false });
  const connections = new Set<Connection>();
  let closing: Promise<void> | undefined;
  let received = 0;
  const lowWater = Math.floor(options.sendHighWaterBytes / 2);
  /** Replies written at once at most while corked: well under the high-water mark. */
  const flushBytes = Math.min(16 * 1024, Math.floor(options.sendHighWaterBytes / 4));

  const pinger = setInterval(() => {
    for (const conn of connections) {
      if (!conn.alive) {
        logger.debug('terminating a /v2/ws peer that did not answer ping');
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
  }, options.pingIntervalMs);
  pinger.unref();

  /**
   * End of the turn: the replies leave in one write, and what the kernel did not take is what waits
   * to be sent. Checked here, not per reply: while corked every reply of the turn is still buffered.
   */
  function uncork(conn: Connection): void {
    if (!conn.corked) return;
    conn.corked = false;
    conn.socket.uncork();
    const { ws } = conn;
    if (!ws.isPaused && ws.bufferedAmount > options.sendHighWaterBytes && ws.readyState === WebSocket.OPEN) ws.pause();
  }

  function send(conn: Connection, reply: Reply): void {
    const { ws } = conn;
    if (ws.readyState !== WebSocket.OPEN) return;
    // The frames of one incoming chunk are answered in one turn: corked until the turn ends, their
    // replies leave in one write instead of one system call each, the largest cost per message.
    if (!conn.corked) {
      conn.corked = true;
      conn.socket.cork();
      process.nextTick(uncork, conn);
    }
    ws.send(JSON.stringify(reply), conn.sent);
    // A long turn (a large incoming chunk) is written in parts, so what waits beyond them is what
    // the kernel refused, and the high-water mark keeps its meaning (docs/decisions.md).
    if (ws.bufferedAmount >= flushBytes) uncork(conn);
  }

  function open(ws: WebSocket, socket: Duplex, principal: Principal): void {
    const conn: Connection = {
      ws,
      socket,
      session: new HashSession(deps, principal, options, 'ws'),
      alive: true,
      corked: false,
      sent: () => {
        // While this side is paused it reads no pongs; data leaving the buffer shows the peer lives.
        conn.alive = true;
        if (ws.isPaused && ws.bufferedAmount <= lowWater && ws.readyState === WebSocket.OPEN) ws.resume();
      },
    };
    connections.add(conn);
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('error', (err) => logger.debug({ err }, '/v2/ws connection error'));
    ws.on('close', () => connections.delete(conn));
    ws.on('message', (data) => {
      if (closing) return;
      received += 1;
      const bytes = toBuffer(data);
      // Most replies are ready in this turn (HashSession.handleNow); only the rest wait on a promise.
      const reply = conn.session.handleNow(parseIncoming(bytes.toString('utf8')), bytes.length);
      if (reply instanceof Promise) void reply.then((r) => send(conn, r));
      else send(conn, reply);
    });
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let lease: ConnectionLease | undefined;
    try {
      if (closing) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the server is shutting down' });
      assertHandshake(req);
      const url = new URL(req.url ?? '/', 'http://localhost');
      const principal = await authenticateHandshake(
        deps,
        { credentials: url.searchParams.getAll('api_key'), origin: req.headers.origin, address: handshakeAddress(deps, req) },
        ['hash'],
      );
      lease = await admitConnection(deps, registry, principal);
      // The slot is held exactly as long as the TCP connection, whatever ends it.
      const held = lease;
      socket.once('close', () => void held.release());
      if (socket.destroyed) return void held.release();
      wss.handleUpgrade(req, socket, head, (ws) => open(ws, socket, principal));
    } catch (err) {
      await lease?.release();
      const error = toServiceError(err);
      if (error.status >= 500) logger.error({ err: error.cause ?? err }, '/v2/ws upgrade failed');
      refuseUpgrade(socket, error);
    }
  }

  async function shutdown(): Promise<void> {
    clearInterval(pinger);
    const open = [...connections];
    // Read nothing new; let what is in flight be answered.
    for (const conn of open) conn.ws.pause();
    await Promise.race([Promise.all(open.map((conn) => conn.session.idle())), sleep(options.closeGraceMs, undefined, { ref: false })]);
    await Promise.all(
      open.map(
        (conn) =>
          new Promise<void>((resolve) => {
            const { ws } = conn;
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            const force = setTimeout(() => ws.terminate(), 1000);
            ws.once('close', () => {
              clearTimeout(force);
              resolve();
            });
            ws.resume();
            ws.close(1001, 'server shutting down');
          }),
      ),
    );
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  return {
    handleUpgrade(req, socket, head) {
      socket.on('error', (err) => logger.debug({ err }, '/v2/ws upgrade socket error'));
      void upgrade(req, socket, head);
    },
    stats() {
      let paused = 0;
      for (const conn of connections) if (conn.ws.isPaused) paused += 1;
      return { connections: connections.size, paused, received };
    },
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
