import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isServiceError, ServiceError } from '../../shared/errors.js';
import type { Logger } from '../../shared/log.js';
import type { ErrorRenderer } from './envelopes.js';
import { rendererFor } from './raw-response.js';

interface HttpishError {
  type?: unknown;
  status?: unknown;
  expose?: unknown;
}

/** Errors raised by Express's body parsers carry a `type`; map the ones a client causes. */
export function toServiceError(err: unknown): ServiceError {
  if (isServiceError(err)) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as HttpishError;
  switch (e.type) {
    case 'entity.parse.failed':
      return new ServiceError('INVALID_INPUT', { message: 'Request body is not valid JSON', details: 'field: body', cause: err });
    case 'entity.too.large':
      return new ServiceError('PAYLOAD_TOO_LARGE', { cause: err });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', { cause: err });
    case 'request.aborted':
      return new ServiceError('INVALID_INPUT', { message: 'Request body was aborted', cause: err });
    default:
      return clientStatusError(e.status, err) ?? new ServiceError('INTERNAL_ERROR', { cause: err });
  }
}

/**
 * An error a library marked as the client's (http-errors style `status` 4xx, e.g. the router's
 * 400 for a parameter it cannot decode) is the client's in the catalog too, never a 500.
 */
function clientStatusError(status: unknown, cause: unknown): ServiceError | undefined {
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  switch (status) {
    case 408:
      return new ServiceError('REQUEST_TIMEOUT', { cause });
    case 413:
      return new ServiceError('PAYLOAD_TOO_LARGE', { cause });
    case 415:
      return new ServiceError('UNSUPPORTED_MEDIA_TYPE', { cause });
    case 431:
      return new ServiceError('HEADERS_TOO_LARGE', { cause });
    default:
      return new ServiceError('INVALID_INPUT', { message: 'Malformed request', cause });
  }
}

/** Send `err` in a generation's envelope, with the headers its status implies. */
export function sendError(res: Parameters<RequestHandler>[1], err: ServiceError, render: ErrorRenderer): void {
  // Already answered (a timeout, a parser refusal) or the client is gone: nothing more to say.
  if (res.headersSent || res.destroyed || res.socket === null || res.socket.destroyed) {
    res.destroy();
    return;
  }
  const retryAfter = err.retryAfterHeader;
  if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
  // An oversized body is not left unread: the body readers discard the rest up to a bound
  // (api/uploads/request-body.ts), so the connection can carry this answer and stay usable.
  res.status(err.status).json(render(err));
}

/**
 * The one error handler of a generation (or, without `render`, of the app, choosing by path):
 * known errors become the envelope; anything else is logged with its cause and answered with a
 * generic 500 (no stack traces or internals).
 */
export function errorHandler(options: { render?: ErrorRenderer; logger: Logger }): ErrorRequestHandler {
  return function handleError(err: unknown, req, res, _next) {
    if (res.headersSent) {
      // Answered already (a request timeout, a parser refusal) while the route was still working:
      // what the route hit afterwards is an aftermath, not a fault.
      options.logger.debug({ err, requestId: res.locals.requestId, path: req.path }, 'error after the response was sent');
      res.destroy();
      return;
    }
    const serviceError = toServiceError(err);
    if (serviceError.status >= 500) {
      options.logger.error({ err: serviceError.cause ?? err, requestId: res.locals.requestId, path: req.path }, 'request failed');
    }
    // Outside a generation's router (app level), the path says which envelope the caller expects.
    sendError(res, serviceError, options.render ?? rendererFor(req.originalUrl));
  };
}

/** JSON 404 for unknown endpoints, in the generation's envelope. */
export function notFound(render: ErrorRenderer): RequestHandler {
  return function unknownEndpoint(req, res) {
    sendError(res, new ServiceError('NOT_FOUND', { details: `no endpoint ${req.method} ${req.baseUrl}${req.path}` }), render);
  };
}
