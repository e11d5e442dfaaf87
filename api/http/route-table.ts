/**
 * One route table per API generation: each route is declared once, and that declaration drives
 * its Express registration, the 405 `Allow` list of its path and its OpenAPI operation
 * (api/openapi-kit.ts documentRoutes). A handler is parse → operation → render: the schema
 * checks and decodes (api/schemas/), the operation does the work (api/operations/), a typed
 * renderer shapes the generation's body.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Permission } from '../../shared/auth/principal.js';
import type { ApiDeps } from '../deps.js';
import type { RouteDoc } from '../openapi-kit.js';
import { methodNotAllowed } from './method-not-allowed.js';
import type { StaticRoute } from './exact-routes.js';
import { inOneLayer } from './one-layer.js';

/** What a generation hands its routes. */
export interface RouteContext {
  deps: ApiDeps;
  /** Require a caller, check a client key's Origin and `permission` (counted by the router). */
  guard: (permission: Permission) => RequestHandler[];
  /** The JSON body parser with the node's limits (api/middleware/json-body.ts). */
  json: RequestHandler;
}

export interface Route {
  /** head, patch and delete: the tus protocol of /v2/uploads (api/v2/upload-routes.ts). */
  method: 'get' | 'post' | 'head' | 'patch' | 'delete';
  /** Inside the generation's router, in Express syntax (`/jobs/:id`). */
  path: string;
  permission: Permission;
  /** A JSON body is parsed before the handler; uploads read their own body. */
  jsonBody?: boolean;
  /** Refusals that need no body, run after the guard and before the body is read. */
  before?: readonly RequestHandler[];
  /**
   * Reads the account's usage: counted in the rate window only, never refused by the daily quota
   * nor counted in it (docs/limits.md "Headers and errors").
   */
  outsideQuota?: true;
  handle: (ctx: RouteContext, req: Request, res: Response) => Promise<void> | void;
  /** Its OpenAPI operation; the path and the scope come from the route itself. */
  doc: RouteDoc;
}

/**
 * Register `routes` on `router`, then a 405 with `Allow` for every other method on their paths.
 * Returns each route with its handlers, for the exact-path dispatch (api/http/exact-routes.ts).
 */
export function mountRoutes(router: Router, routes: readonly Route[], ctx: RouteContext): StaticRoute[] {
  const mounted: StaticRoute[] = [];
  for (const route of routes) {
    const body = route.jsonBody === true ? [ctx.json] : [];
    const handlers: RequestHandler[] = [
      // The guards, refusals and body parser in one router layer (api/http/one-layer.ts).
      inOneLayer([...ctx.guard(route.permission), ...(route.before ?? []), ...body]),
      (req, res) => route.handle(ctx, req, res),
    ];
    const expressRoute = router.route(route.path);
    expressRoute[route.method](...handlers);
    mounted.push({ method: route.method, path: route.path, route: expressRoute, handlers });
  }
  for (const [path, methods] of allowedMethods(routes)) router.all(path, methodNotAllowed(methods));
  return mounted;
}

/** Each path of `routes` with the methods it serves, in declaration order. */
export function allowedMethods(routes: readonly Route[]): Map<string, string[]> {
  const allowed = new Map<string, string[]>();
  for (const { path, method } of routes) allowed.set(path, [...(allowed.get(path) ?? []), method.toUpperCase()]);
  return allowed;
}
