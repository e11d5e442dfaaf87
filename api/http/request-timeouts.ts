/**
 * Bounded time for receiving every request body (Node's own `headersTimeout` bounds the headers).
 *
 * - Body idle: no byte of the body for `bodyIdleMs` while this side is ready to read → 408
 *   REQUEST_TIMEOUT in the generation's envelope, then close. Bytes buffered and not yet consumed
 *   count as progress, so a slow blob store (backpressure) is never blamed on the client.
 * - Total: the whole request must arrive within `requestMs`, except requests `unbounded` says may
 *   take longer (/v2/stream: a slow upload that keeps sending is not cut off; only the idle
 *   timeout and its byte limit bound it). Once a response has been sent, the total bound applies
 *   to every request, so a body left to drain after a refusal cannot hold the connection.
 *
 * Node's `requestTimeout` is not used: it is per server, and /v2/stream must be exempt. One
 * interval per server checks every request whose body is still arriving.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../../shared/errors.js';
import { endWithError } from './raw-response.js';

export interface RequestTimeoutOptions {
  bodyIdleMs: number;
  requestMs: number;
  /** Requests exempt from `requestMs` while they have not been answered. */
  unbounded: (req: http.IncomingMessage) => boolean;
}

/**
 * One connection's watch: made on its first request and reused by every later one, so the per-request
 * state lives in an object as old as the connection, not in a collection of per-request entries.
 */
interface Watched {
  socket: Socket;
  /** The request this connection is receiving or answering; cleared once its response closes. */
  req: http.IncomingMessage | undefined;
  res: http.ServerResponse | undefined;
  /** The request target as received (routers rewrite `req.url` as they mount). */
  target: string | undefined;
  /** Whether its body is still bounded (cleared once it has arrived, or once it expired). */
  receiving: boolean;
  startedAt: number;
  bytesRead: number;
  lastProgressAt: number;
  unbounded: boolean;
}

/** How long an answered-and-closing socket may take to flush before it is destroyed anyway. */
const FLUSH_GRACE_MS = 2000;

export interface RequestWatch {
  /** Watch a request from its headers on; call before any handler rewrites `req.url`. */
  track(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** The request a socket is currently receiving, if it has one. */
  inFlight(socket: Socket): { res: http.ServerResponse; target: string | undefined } | undefined;
  stop(): void;
}

/** Close `socket` once it has flushed, or after a grace period if the peer does not read. */
export function closeSoon(socket: Socket): void {
  setTimeout(() => socket.destroy(), FLUSH_GRACE_MS).unref();
}

export function watchRequestTimeouts(options: RequestTimeoutOptions): RequestWatch {
  // Connections, not requests: an entry is added on a connection's first request and removed when
  // it closes. A set or map that took an entry per request churned through its hash tables under
  // load, and a request answered in a later turn than its handler (a logged /v2/hash waiting for its
  // batch) was still in them at a young-generation collection: the set kept the requests it had
  // held alive into the old generation (4.5 MB kept per scavenge against 0.2 MB; docs/decisions.md
  // "Speed").
  const connections = new Set<Watched>();
  const bySocket = new WeakMap<Socket, Watched>();

  /** Drops the connection's current request: nothing of it is held once its answer is done. */
  const release = (entry: Watched): void => {
    entry.req = undefined;
    entry.res = undefined;
    entry.target = undefined;
    entry.receiving = false;
  };

  // One listener function for every response ('close' is emitted once): the socket no longer receives
  // it, and nothing is left to bound. Dropped here, not at the next check: held until then (up to a
  // second), every request and response under load outlived the young generation and was promoted
  // to the old one, whose collections were the tail latency's pauses (docs/decisions.md "Speed").
  function forget(this: http.ServerResponse): void {
    const socket = this.req.socket;
    const entry = socket === null ? undefined : bySocket.get(socket);
    if (entry?.res === this) release(entry);
  }

  function closed(this: Socket): void {
    const entry = bySocket.get(this);
    if (entry === undefined) return;
    release(entry);
    connections.delete(entry);
  }

  const track = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const socket = req.socket;
    let entry = bySocket.get(socket);
    if (entry === undefined) {
      entry = {
        socket,
        req: undefined,
        res: undefined,
        target: undefined,
        receiving: false,
        startedAt: 0,
        bytesRead: 0,
        lastProgressAt: 0,
        unbounded: false,
      };
      bySocket.set(socket, entry);
      connections.add(entry);
      socket.once('close', closed);
    }
    const now = Date.now();
    entry.req = req;
    entry.res = res;
    entry.target = req.url;
    entry.receiving = true;
    entry.startedAt = now;
    entry.bytesRead = socket.bytesRead;
    entry.lastProgressAt = now;
    entry.unbounded = options.unbounded(req);
    res.on('close', forget);
  };

  const expire = (entry: Watched, req: http.IncomingMessage, res: http.ServerResponse, idle: boolean): void => {
    const err = new ServiceError('REQUEST_TIMEOUT', {
      message: idle ? 'The request body stalled' : 'The request was not received in time',
      details: idle
        ? `no body bytes arrived for ${options.bodyIdleMs} ms`
        : `the request took longer than ${options.requestMs} ms to arrive`,
    });
    if (res.headersSent || res.writableEnded) {
      req.socket.destroy();
      return;
    }
    endWithError(res, err, entry.target);
    closeSoon(req.socket);
  };

  const check = (): void => {
    const now = Date.now();
    for (const entry of connections) {
      const { req, res } = entry;
      if (!entry.receiving || req === undefined || res === undefined) continue;
      if (req.complete || req.socket.destroyed) {
        entry.receiving = false;
        continue;
      }
      const bytesRead = req.socket.bytesRead;
      if (bytesRead !== entry.bytesRead || req.readableLength > 0) {
        entry.bytesRead = bytesRead;
        entry.lastProgressAt = now;
      }
      const idle = now - entry.lastProgressAt >= options.bodyIdleMs;
      const bounded = !entry.unbounded || res.headersSent;
      const late = bounded && now - entry.startedAt >= options.requestMs;
      if (idle || late) {
        entry.receiving = false;
        expire(entry, req, res, idle);
      }
    }
  };
  const interval = setInterval(check, Math.max(20, Math.min(1000, Math.floor(Math.min(options.bodyIdleMs, options.requestMs) / 4))));
  interval.unref();

  return {
    track,
    inFlight(socket) {
      const entry = bySocket.get(socket);
      return entry?.res === undefined ? undefined : { res: entry.res, target: entry.target };
    },
    stop() {
      clearInterval(interval);
      for (const entry of connections) {
        release(entry);
        entry.socket.off('close', closed);
      }
      connections.clear();
    },
  };
}
