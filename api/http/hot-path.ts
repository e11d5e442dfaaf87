/**
 * The hot path (docs/decisions.md "Speed"): a POST to the exact path of a route declared `hot`
 * (api/http/route-table.ts) is recognised in the node:http 'request' listener and served without
 * Express's dispatch: no `app.handle`, no final handler, no walk of the app's and the generation's
 * router layers. It runs the very handlers Express would run for it, in the same order, each once
 * declared: the app's edge (metrics, request id, trace context, access log, HTTPS, sandbox), the
 * generation's common handlers (CORS preflight, no-store, caller identification and limits,
 * malformed path), the route's guards, body reader and handler, and the generation's 404 and error
 * handler, with the request and response Express would have handed them (its prototypes, `locals`,
 * `originalUrl`, `baseUrl`, `route`, `params`). Its answers are byte-identical to Express's
 * (test/api/hot-path-differential.test.ts). Anything else (another method, a query string, a
 * trailing slash, another case) goes to Express unchanged.
 */
import http, { type IncomingMessage, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { StaticRoute } from './exact-routes.js';
import { inOneLayer } from './one-layer.js';

/** A generation's routes and the handlers around them, as its router was built (api/middleware/generation-router.ts). */
export interface HotGeneration {
  /** Its mount path, e.g. `/v2`. */
  prefix: string;
  common: readonly RequestHandler[];
  mounted: readonly StaticRoute[];
  unknown: RequestHandler;
  onError: ErrorRequestHandler;
}

interface HotEntry {
  run: RequestHandler;
  generation: HotGeneration;
}

/** Every hot route of `generations`, by method then by the exact URL a client sends. */
function hotTable(edge: readonly RequestHandler[], generations: readonly HotGeneration[]): Map<string, Map<string, HotEntry>> {
  const table = new Map<string, Map<string, HotEntry>>();
  for (const generation of generations) {
    for (const route of generation.mounted) {
      if (route.hot !== true) continue;
      const method = route.method.toUpperCase();
      if (method !== 'POST' || route.path.includes(':')) throw new TypeError(`${route.path}: only a POST to a fixed path can be hot`);
      const byUrl = table.get(method) ?? new Map<string, HotEntry>();
      const { prefix } = generation;
      // Past the app's edge the request enters its generation, as the router's mount would have it.
      const enter: RequestHandler = function enterGeneration(req, _res, next) {
        req.baseUrl = prefix;
        req.url = route.path;
        (req as { route: unknown }).route = route.route;
        req.params = {};
        next();
      };
      byUrl.set(`${prefix}${route.path}`, { run: inOneLayer([...edge, enter, ...generation.common, ...route.handlers]), generation });
      table.set(method, byUrl);
    }
  }
  return table;
}

/**
 * The node's 'request' listener: the hot routes of `generations` behind `edge` (the app-level
 * handlers every request crosses before its generation), everything else to `app`.
 */
export function hotPathListener(app: Express, edge: readonly RequestHandler[], generations: readonly HotGeneration[]): RequestListener {
  const table = hotTable(edge, generations);
  const requestProto = app.request as object;
  const responseProto = app.response as object;
  return function serveHot(message: IncomingMessage, reply: ServerResponse): void {
    const entry = message.method === undefined || message.url === undefined ? undefined : table.get(message.method)?.get(message.url);
    if (entry === undefined) {
      app(message, reply);
      return;
    }
    // What app.handle and the router give a request reaching this route (express/lib/application.js).
    // A server made with expressMessageClasses has made them so already.
    if (Object.getPrototypeOf(message) !== requestProto) Object.setPrototypeOf(message, requestProto);
    if (Object.getPrototypeOf(reply) !== responseProto) Object.setPrototypeOf(reply, responseProto);
    const req = message as Request;
    const res = reply as Response;
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl = message.url!;
    req.baseUrl = '';
    const { generation } = entry;
    const next: NextFunction = () => undefined;
    entry.run(req, res, (err?: unknown) => {
      if (err) void generation.onError(err, req, res, next);
      else void generation.unknown(req, res, next);
    });
  };
}

/**
 * The request and response classes of a node:http server whose requests are born with `app`'s
 * Express prototypes (node:http's `IncomingMessage` and `ServerResponse` options). Express gives
 * each request its prototypes on arrival (Object.setPrototypeOf); an object whose prototype
 * changes after it was made loses its fast shape, and every property set on it afterwards
 * allocated: about a fifth of the bytes a `/v2/hash` request allocated. Made with them, the hot
 * path sets nothing, and Express's own setPrototypeOf finds the prototype already in place.
 */
export function expressMessageClasses(app: Express): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  // node:http's own constructors are plain functions (lib/_http_incoming.js, lib/_http_server.js).
  const Incoming = http.IncomingMessage as unknown as (this: IncomingMessage, ...args: unknown[]) => void;
  const Outgoing = http.ServerResponse as unknown as (this: ServerResponse, ...args: unknown[]) => void;
  function ExpressRequest(this: IncomingMessage, ...args: unknown[]): void {
    Incoming.apply(this, args);
  }
  ExpressRequest.prototype = app.request as object;
  function ExpressResponse(this: ServerResponse, ...args: unknown[]): void {
    Outgoing.apply(this, args);
  }
  ExpressResponse.prototype = app.response as object;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse,
  };
}
