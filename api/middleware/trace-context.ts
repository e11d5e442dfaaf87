import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { parseTraceparent, runWithTrace } from '../../shared/trace.js';

/**
 * After requestId: the rest of the request runs inside its trace context (shared/trace.ts), so a
 * job it enqueues carries the request id and the caller's validated `traceparent` to the worker,
 * and a synchronous job still queued when the caller hangs up is cancelled (RunOptions.signal).
 */
export function traceContext(): RequestHandler {
  return function withTraceContext(req, res, next) {
    const traceparent = parseTraceparent(req.headers.traceparent);
    if (traceparent !== undefined) res.locals.traceparent = traceparent;
    const caller = new AbortController();
    // 'close' also follows a completed response; only one closed before its end means the caller left.
    res.once('close', () => {
      if (!res.writableFinished)
        caller.abort(new ServiceError('INVALID_INPUT', { message: 'Request was aborted', details: 'the client closed the connection' }));
    });
    runWithTrace({ requestId: res.locals.requestId, traceparent }, next, caller.signal);
  };
}
