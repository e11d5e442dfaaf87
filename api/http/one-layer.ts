import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares run as one Express layer, in order, with Express 5's own contract for each:
 * a synchronous throw or a rejected promise goes to `next(err)`, `next(err)` skips the rest, and
 * a handler that never calls `next` ends the chain. Each handler's throw is caught at its own
 * step, as Express does per layer, so a later handler's error never surfaces inside an earlier
 * one's try/catch. Why: every layer costs a router dispatch (path match, URL parse, prefix trim)
 * per request, and the hot routes crossed about twenty of them before their handler.
 * `next('route')` and `next('router')` are not supported: none of the composed handlers uses them.
 */
export function inOneLayer(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0]!;
  return function composed(req: Request, res: Response, next: NextFunction): void {
    let index = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[index++];
      if (handler === undefined) return next();
      try {
        const ret: unknown = handler(req, res, step);
        if (ret instanceof Promise) ret.then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
      } catch (error) {
        next(error);
      }
    };
    step();
  };
}
