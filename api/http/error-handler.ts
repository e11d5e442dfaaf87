import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isServiceError, ServiceError } from '../../shared/errors.js';
import type { Logger } from '../../shared/log.js';
import type { ErrorRenderer } from './envelopes.js';

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
      return new ServiceError('INTERNAL_ERROR', { cause: err });
  }
}

/** Send `err` in a generation's envelope, with the headers its status implies. */
export function sendError(res: Parameters<RequestHandler>[1], err: ServiceError, render: ErrorRenderer): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err.retryAfter !== undefined) res.setHeader('Retry-After', String(err.retryAfter));
  if (err.code === 'FILE_TOO_LARGE' || err.code === 'PAYLOAD_TOO_LARGE') {
    // The rest of an oversized body is not read; closing is the only honest end of the exchange.
    res.setHeader('Connection', 'close');
  }
  res.status(err.status).json(render(err));
}

/**
 * The one error handler of a generation: known errors become its envelope; anything else is
 * logged with its cause and answered with a generic 500 (no stack traces or internals).
 */
export function errorHandler(options: { render: ErrorRenderer; logger: Logger }): ErrorRequestHandler {
  return function handleError(err: unknown, req, res, _next) {
    const serviceError = toServiceError(err);
    if (serviceError.status >= 500) {
      options.logger.error({ err: serviceError.cause ?? err, requestId: res.locals.requestId, path: req.path }, 'request failed');
    }
    sendError(res, serviceError, options.render);
  };
}

/** JSON 404 for unknown endpoints, in the generation's envelope. */
export function notFound(render: ErrorRenderer): RequestHandler {
  return function unknownEndpoint(req, res) {
    sendError(res, new ServiceError('NOT_FOUND', { details: `no endpoint ${req.method} ${req.baseUrl}${req.path}` }), render);
  };
}
