import type { RequestHandler, Response } from 'express';
import { parseTraceparent, runWithTrace } from '../../shared/trace.js';
import { ResponseCallerWatch } from '../http/caller-watch.js';

// 'close' also follows a completed response; only one closed before its end means the caller left.
// One listener function for every response; 'close' is emitted once, so `on` needs no once-wrapper.
function onClose(this: Response): void {
  if (!this.writableFinished) this.locals.callerWatch?.gone();
}

/**
 * After requestId: the rest of the request runs inside its trace context (shared/trace.ts), so a
 * job it enqueues carries the request id and the caller's validated `traceparent` to the worker,
 * and a synchronous job still queued when the caller hangs up is cancelled (RunOptions.signal).
 */
export function traceContext(): RequestHandler {
  return function withTraceContext(req, res, next) {
    const traceparent = parseTraceparent(req.headers.traceparent);
    if (traceparent !== undefined) res.locals.traceparent = traceparent;
    const caller = new ResponseCallerWatch();
    res.locals.callerWatch = caller;
    res.on('close', onClose);
    runWithTrace({ requestId: res.locals.requestId, traceparent }, next, caller);
  };
}
