import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { ServiceError } from '../../shared/errors.js';
import { closeSoon } from '../http/request-timeouts.js';
import { bodyBytesRead } from './received-chunks.js';

/**
 * The one way a route reads a request body (JSON, multipart, raw stream). The body's bytes are
 * handed to one consumer through `stream`, a PassThrough that always has an `error` listener, so
 * nothing on this path can reach `uncaughtException`; the request itself is never destroyed by a
 * consumer's failure, so a refusal can still be answered on the socket.
 *
 * After a refusal, `discardRest()` detaches the consumer and reads the rest of the body into the
 * void, up to `drainMaxBytes`, so clients that send their whole body before reading (Node's
 * `fetch`, most SDKs) still receive the 4xx instead of EPIPE; past the bound the connection is
 * closed. Time is bounded by the server's body-idle and request timeouts (api/http/request-timeouts.ts).
 */
export interface RequestBody {
  /** The body's bytes for one consumer; fails with `clientGone()` if the client leaves before the end. */
  readonly stream: PassThrough;
  /** Bytes received so far. */
  received(): number;
  /** SHA-224 (hex) of every byte of the body, when asked for; read it after the body ended. */
  digest(): string | undefined;
  /** Stop feeding the consumer; read and discard the rest of the body up to the bound, then close. */
  discardRest(): void;
}

export interface RequestBodyOptions {
  drainMaxBytes: number;
  /** Compute the SHA-224 of the raw body (idempotency fingerprints). */
  digest?: boolean;
}

/** A content coding other than identity is refused (415), never decoded (docs/decisions.md "Transport"). */
export function assertIdentityEncoding(req: IncomingMessage): void {
  const header = req.headers['content-encoding'];
  if (header === undefined) return;
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '');
  if (codings.every((c) => c === 'identity')) return;
  throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', {
    message: 'Content-Encoding must be identity; send the body uncompressed',
    details: 'header: content-encoding',
  });
}

/** The client closed the connection before its body ended: nobody is left to answer. */
export function clientGone(): ServiceError {
  return new ServiceError('INVALID_INPUT', { message: 'Request body was aborted', details: 'field: body' });
}

export function takeBody(req: IncomingMessage, res: ServerResponse, options: RequestBodyOptions): RequestBody {
  const stream = new PassThrough({ highWaterMark: 64 * 1024 });
  // The consumer observes errors through its own pipeline; this listener keeps one that arrives
  // before the consumer attaches (a client gone 0 ms after its headers) from crashing the process.
  stream.on('error', () => undefined);
  const hash: Hash | undefined = options.digest ? createHash('sha224') : undefined;
  let received = 0;
  let detached = false;
  let digestHex: string | undefined;

  const onData = (chunk: Buffer): void => {
    received += chunk.length;
    hash?.update(chunk);
    const more = stream.write(chunk);
    bodyBytesRead(chunk.length);
    if (!more) req.pause();
  };
  const onDrain = (): void => {
    if (!detached) req.resume();
  };
  const onEnd = (): void => {
    if (!detached) stream.end();
  };
  const onGone = (): void => {
    if (!req.complete && !stream.destroyed) stream.destroy(clientGone());
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onGone);
  req.on('close', onGone);
  // Once a response has been sent (a refusal while the body still arrives), Node no longer aborts
  // the request when its socket closes: watch the socket itself.
  const socket = req.socket;
  socket.on('close', onGone);
  stream.on('drain', onDrain);
  // Flowing mode; 'data' listeners are attached above, so no byte is lost.
  req.resume();
  // The client may have left while the route was still authenticating: no 'close' comes again,
  // and a destroyed request yields no more data.
  if (req.destroyed && !req.readableEnded) stream.destroy(clientGone());

  const stopFeeding = (): void => {
    detached = true;
    req.off('data', onData);
    req.off('end', onEnd);
    stream.off('drain', onDrain);
  };
  stream.once('close', () => {
    req.off('error', onGone);
    req.off('close', onGone);
    socket.off('close', onGone);
  });

  return {
    stream,
    received: () => received,
    digest: () => (digestHex ??= hash?.digest('hex')),
    discardRest() {
      if (detached) return;
      stopFeeding();
      if (!stream.destroyed) stream.destroy();
      if (req.complete || req.destroyed) return;
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared - received > options.drainMaxBytes) {
        // Known to be past the bound: answer, then close instead of reading it.
        if (!res.headersSent) res.setHeader('Connection', 'close');
        req.on('error', () => undefined);
        return;
      }
      let discarded = 0;
      req.on('error', () => undefined);
      const count = (chunk: Buffer): void => {
        discarded += chunk.length;
        bodyBytesRead(chunk.length);
        if (discarded <= options.drainMaxBytes) return;
        // Past the bound: read no more, and close once the answer has been written, so a client
        // that reads while it sends still gets it.
        req.off('data', count);
        req.pause();
        if (!res.headersSent) res.setHeader('Connection', 'close');
        const close = (): void => {
          socket.end();
          closeSoon(socket);
        };
        if (res.writableFinished) close();
        else res.once('finish', close);
      };
      req.on('data', count);
      req.resume();
    },
  };
}
