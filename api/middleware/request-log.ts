import type { RequestHandler, Response } from 'express';
import type { Logger } from '../../shared/log.js';

/**
 * One JSON line per request: id, method, route, status, duration. The path is logged without its
 * query string and no header is logged, so `api_key`, `Authorization` and `X-API-Key` never
 * reach the logs.
 *
 * The line is written through a child logger without redaction: its fields are the fixed set
 * below, none named like a redacted path (shared/log.ts REDACT_PATHS), so redaction could never
 * change it, while running the wildcard paths over every field doubled the cost of each line.
 */
export function requestLog(logger: Logger): RequestHandler {
  const access = logger.child({}, { redact: { paths: [] } });
  // One listener function for every response; the start time rides on res.locals.
  function logFinished(this: Response): void {
    const req = this.req;
    const locals = this.locals;
    const route =
      req.route && typeof (req.route as { path?: unknown }).path === 'string'
        ? `${req.baseUrl}${(req.route as { path: string }).path}`
        : undefined;
    const url = req.originalUrl;
    const q = url.indexOf('?');
    access.info(
      {
        requestId: locals.requestId,
        traceparent: locals.traceparent,
        method: req.method,
        path: q === -1 ? url : url.slice(0, q),
        route,
        status: this.statusCode,
        durationMs: performance.now() - (locals.logStartedAt ?? 0),
        account: locals.principal?.accountId,
        sandbox: locals.sandbox === true ? true : undefined,
      },
      'request',
    );
  }
  return function logRequest(_req, res, next) {
    res.locals.logStartedAt = performance.now();
    res.on('finish', logFinished);
    next();
  };
}
