import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** A client-supplied id is echoed only if short and of a safe charset (it reaches logs). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestId(options: { header?: string } = {}): RequestHandler {
  const header = options.header ?? 'x-request-id';
  return function assignRequestId(req, res, next) {
    res.locals.receivedAtMs = performance.now();
    const offered = req.headers[header];
    const id = typeof offered === 'string' && SAFE_REQUEST_ID.test(offered) ? offered : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
