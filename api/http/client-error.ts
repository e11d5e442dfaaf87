/**
 * Requests refused by Node's HTTP parser (bad bytes, Content-Length with Transfer-Encoding, invalid
 * chunk framing, headers too large or too slow) are answered in the JSON envelope where the socket
 * can still carry an answer, instead of Node's bare status line, and the connection is closed.
 * Errors of sockets whose peer has already gone are only closed.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ServiceError } from '../../shared/errors.js';
import { endWithError, rawErrorResponse } from './raw-response.js';
import { closeSoon, type RequestWatch } from './request-timeouts.js';

/** The catalog error for a parser refusal (llhttp codes, Node's ERR_HTTP_REQUEST_TIMEOUT). */
export function parserRefusal(code: string | undefined): ServiceError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError('HEADERS_TOO_LARGE', { details: 'the request line and headers exceed the server limit' });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError('REQUEST_TIMEOUT', { message: 'The request headers were not received in time', details: 'headers' });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_CHUNK_SIZE':
      return new ServiceError('INVALID_INPUT', { message: 'Invalid chunked transfer encoding', details: 'field: body' });
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ServiceError('INVALID_INPUT', {
        message: 'Content-Length and Transfer-Encoding together, or an invalid Transfer-Encoding',
        details: 'header: transfer-encoding',
      });
    default:
      return new ServiceError('INVALID_INPUT', { message: 'Malformed HTTP request', details: code === undefined ? '' : `parser: ${code}` });
  }
}

/** The request target named by the bytes the parser refused, if they start with a request line. */
function targetOf(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  return /^[A-Z]+ (\S+) HTTP\//.exec(rawPacket.subarray(0, 512).toString('latin1'))?.[1];
}

export function handleClientErrors(server: http.Server, watch: RequestWatch): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = parserRefusal(err.code);
    const current = watch.inFlight(socket as Socket);
    if (current !== undefined) {
      // The parser failed inside a request's body (e.g. its chunk framing): answer through that
      // request's own response, unless it has started already.
      if (current.res.headersSent) socket.destroy();
      else endWithError(current.res, refusal, current.target);
    } else {
      socket.end(rawErrorResponse(refusal, targetOf(err.rawPacket)));
    }
    closeSoon(socket as Socket);
  });
}
