/**
 * Tells a webhook attempt lost to the keep-alive race from any other failure: a receiver closed a
 * kept-alive connection just as a request went out on it, so the request failed on a REUSED
 * connection before any byte of its answer arrived. Only such a failure is sent again on a new
 * connection (send.ts, docs/decisions.md "Webhooks"); undici does not retry a POST itself.
 *
 * The sender's connector registers each connection it opens; undici's diagnostics channel
 * `undici:client:sendHeaders` (published as each request is written, with its socket) counts the
 * requests a connection carried and notes the bytes it had read when the latest one went out. A
 * socket error on a connection that carried an earlier request, with no byte read since, marks
 * the error object; the request's rejection is that same object.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

interface ConnectionUse {
  /** Requests written on the connection so far. */
  requests: number;
  /** The connection's bytes read when the latest request was written. */
  bytesReadAtRequest: number;
}

/** A connection closed or reset under a request: what the race looks like, and nothing else. */
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

const connections = new WeakMap<object, ConnectionUse>();
const lostErrors = new WeakSet<object>();

// Other undici users in the process (fetch) publish here too; their sockets are not registered.
subscribe('undici:client:sendHeaders', (message) => {
  const socket = (message as { socket?: unknown } | null)?.socket;
  if (typeof socket !== 'object' || socket === null) return;
  const use = connections.get(socket);
  if (use === undefined) return;
  use.requests++;
  use.bytesReadAtRequest = (socket as Socket).bytesRead;
});

/** Registers a connection the sender opened (before undici uses it). */
export function trackConnection(socket: Socket): void {
  const use: ConnectionUse = { requests: 0, bytesReadAtRequest: 0 };
  connections.set(socket, use);
  // 'error' comes before 'close', and undici fails the request in flight at 'close' with this error.
  socket.on('error', (err: Error) => {
    if (use.requests > 1 && socket.bytesRead === use.bytesReadAtRequest) lostErrors.add(err);
  });
}

/** Whether `err` failed a request on a reused connection, closed or reset before any byte of the answer. */
export function lostBeforeAnswer(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || !lostErrors.has(err)) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && LOST_CODES.has(code);
}
