/**
 * Error answers written outside Express: by the server's clientError handler, its request
 * timeouts and the HTTP→HTTPS listener. Same envelopes as the routers (envelopes.ts), chosen by
 * the request path's generation, and the same security headers.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ServiceError } from '../../shared/errors.js';
import { renderV1Error, renderV2Error, type ErrorRenderer } from './envelopes.js';
import { SECURITY_HEADERS } from './security-headers.js';

/** /v1 paths answer in the v1 envelope; everything else in v2's. `target` is a request target or path. */
export function rendererFor(target: string | undefined): ErrorRenderer {
  return target !== undefined && /^\/v1(?:[/?#]|$)/i.test(target) ? renderV1Error : renderV2Error;
}

function headersFor(err: ServiceError, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  const retryAfter = err.retryAfterHeader;
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  return headers;
}

/** Answer `err` on a response nobody has started, then let Node close the connection. */
export function endWithError(res: ServerResponse, err: ServiceError, target: string | undefined): void {
  const body = JSON.stringify(rendererFor(target)(err));
  res.writeHead(err.status, headersFor(err, body));
  res.end(body);
}

/** The same answer as raw HTTP/1.1 bytes, for a socket whose request never reached a response object. */
export function rawErrorResponse(err: ServiceError, target: string | undefined): string {
  const body = JSON.stringify(rendererFor(target)(err));
  const lines = [`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? 'Error'}`];
  for (const [name, value] of Object.entries(headersFor(err, body))) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
