import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/log.js';

/**
 * One JSON line per request: id, method, route, status, duration. The path is logged without its
 * query string and no header is logged, so `api_key`, `Authorization` and `X-API-Key` never
 * reach the logs.
 */
export function requestLog(logger: Logger): RequestHandler {
  return function logRequest(req, res, next) {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route =
        req.route && typeof (req.route as { path?: unknown }).path === 'string'
          ? `${req.baseUrl}${(req.route as { path: string }).path}`
          : undefined;
      logger.info(
        {
          requestId: res.locals.requestId,
          traceparent: res.locals.traceparent,
          method: req.method,
          path: req.originalUrl.split('?', 1)[0],
          route,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          account: res.locals.principal?.accountId,
          sandbox: res.locals.sandbox === true ? true : undefined,
        },
        'request',
      );
    });
    next();
  };
}
