import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { inOneLayer } from './one-layer.js';

/** A static route as its generation's router registered it (api/http/route-table.ts). */
export interface StaticRoute {
  method: string;
  /** Inside the generation's router, e.g. `/hash`. */
  path: string;
  /** The Express route object the router made for it: what `req.route` is inside the router. */
  route: unknown;
  handlers: readonly RequestHandler[];
  /** Declared `hot` (api/http/route-table.ts Route.hot). */
  hot?: boolean;
}

export interface ExactDispatchOptions {
  /** The generation's mount path, e.g. `/v2`. */
  prefix: string;
  /** What every request of the generation crosses before its route, in order. */
  common: readonly RequestHandler[];
  routes: readonly StaticRoute[];
  /** The generation's error handler. */
  onError: ErrorRequestHandler;
  /** What answers when a route passes the request on (no route handler does; the router would end at its 404). */
  passed: RequestHandler;
}

/**
 * Runs a static route of a generation without the Express router when the request's method and
 * URL are exactly the route's (`POST /v2/hash`): the same handlers in the same order, with what the
 * router would have set (`baseUrl`, `url`, `route`, `params`). Why: the router matches each layer's
 * path, trims the mount prefix and builds closures per router and per layer it crosses; for
 * `POST /v2/hash` that was about a tenth of the CPU and a fifth of the bytes allocated per request
 * (docs/decisions.md "Speed"). Anything else (a query string, a trailing slash, another case,
 * HEAD, a path parameter) goes to the router as before and is answered the same way.
 */
export function exactDispatch(options: ExactDispatchOptions): RequestHandler {
  const { prefix, onError, passed } = options;
  // Method, then the whole URL as the client sent it: no string is built per request.
  const table = new Map<string, Map<string, { path: string; route: unknown; run: RequestHandler }>>();
  for (const route of options.routes) {
    const method = route.method.toUpperCase();
    if (route.path.includes(':') || method === 'GET') continue;
    const byUrl = table.get(method) ?? new Map<string, { path: string; route: unknown; run: RequestHandler }>();
    byUrl.set(`${prefix}${route.path}`, { path: route.path, route: route.route, run: inOneLayer([...options.common, ...route.handlers]) });
    table.set(method, byUrl);
  }
  return function exactRoute(req: Request, res: Response, next: NextFunction): void {
    const entry = table.get(req.method)?.get(req.url);
    if (entry === undefined) return next();
    req.baseUrl = prefix;
    req.url = entry.path;
    (req as { route: unknown }).route = entry.route;
    req.params = {};
    const done = (err?: unknown): void => {
      if (err) void onError(err, req, res, next);
      else void passed(req, res, next);
    };
    void entry.run(req, res, done);
  };
}
