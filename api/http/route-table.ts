/**
 * The one shape every HTTP route of the node is declared in: /v1 and /v2, the management API, the
 * OAuth endpoints and the service routes (probes, metrics, documents, SDK assets). Each route is
 * declared once, and that declaration drives its Express registration, the 405 `Allow` list of its
 * path (where its table answers 405s) and its OpenAPI operation (api/openapi-kit.ts
 * documentTable). A handler is parse → operation → render: the schema checks and decodes
 * (api/schemas/), the operation does the work (api/operations/), a typed renderer shapes the body.
 *
 * Who may call a route is its `permission`, read by its table's own guard builder: a key permission
 * for /v1 and /v2 (api/middleware/guards.ts), the session roles of the management API, OAuth's
 * client authentication; `'public'` where no credential is asked for.
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Permission } from '../../shared/auth/principal.js';
import type { Logger } from '../../shared/log.js';
import type { ApiDeps } from '../deps.js';
import { lazyHandler, type LazyHandler } from '../lazy.js';
import type { RouteDoc } from '../openapi-kit.js';
import { methodNotAllowed } from './method-not-allowed.js';
import type { StaticRoute } from './exact-routes.js';
import { inOneLayer } from './one-layer.js';

/** head: the tus protocol of /v2/uploads (api/v2/upload-routes.ts). */
export type HttpMethod = 'get' | 'post' | 'head' | 'put' | 'patch' | 'delete';
/** How a route's request body is read: JSON, or an HTML form (application/x-www-form-urlencoded). */
export type BodyKind = 'json' | 'form';

/** What every table hands its routes' registration: its guard builder and its body parsers. */
export interface TableContext<P> {
  /** The handlers that admit a caller to a route of `permission` (none for a public route). */
  guard: (permission: P) => RequestHandler[];
  /** The parser of each body kind the table's routes read. */
  bodies?: Partial<Record<BodyKind, RequestHandler>>;
  /**
   * Read the body before the guard: OAuth clients may authenticate with credentials inside the
   * form (client_secret_post). Elsewhere who is asking is settled before what they sent is read.
   */
  bodyFirst?: boolean;
  /** Answer 405 with `Allow` to other methods on the table's paths (the API generations do). */
  methodNotAllowed?: boolean;
}

/** What a generation (/v1, /v2) hands its routes. */
export interface RouteContext extends TableContext<Permission> {
  deps: ApiDeps;
  /** The JSON body parser with the node's limits (api/middleware/json-body.ts). */
  json: RequestHandler;
}

export interface Route<P = Permission, C = RouteContext> {
  method: HttpMethod;
  /** Inside the table's router, in Express syntax (`/jobs/:id`). */
  path: string;
  /** Who may call it, as the table's guard builder reads it (see above). */
  permission: P;
  /** The body read before the handler; uploads read their own body. */
  body?: BodyKind;
  /**
   * The handler answers every method on its path itself (HEAD, a CORS preflight, a 405 with
   * `Allow`), as the public documents and SDK files do; documented as `method`.
   */
  anyMethod?: true;
  /** Refusals that need no body, run after the guard and before the body is read. */
  before?: readonly RequestHandler[];
  /**
   * Reads the account's usage: counted in the rate window only, never refused by the daily quota
   * nor counted in it (docs/limits.md "Headers and errors").
   */
  outsideQuota?: true;
  /**
   * A hot route: a POST to its exact path is served from the node:http listener without Express's
   * dispatch, through the same handlers (api/http/hot-path.ts; HOT_PATH=off turns it off).
   */
  hot?: true;
  /** `next` passes on a request the handler does not answer (an SDK file it does not have). */
  handle: (ctx: C, req: Request, res: Response, next: NextFunction) => unknown;
  /** Its OpenAPI operation; the path and the security come from the route and its table. */
  doc: RouteDoc;
}

/** Where a table is registered: a router, or the app itself (no router layer crossed by every request). */
export type RouteTarget = Pick<Router, 'route' | 'all'>;

/**
 * Register `routes` on `router`, then (with `ctx.methodNotAllowed`, the default) a 405 with
 * `Allow` for every other method on their paths. Returns each route with its handlers, for the
 * exact-path dispatch (api/http/exact-routes.ts).
 */
export function mountRoutes<P, C extends TableContext<P>>(router: RouteTarget, routes: ReadonlyArray<Route<P, C>>, ctx: C): StaticRoute[] {
  const mounted: StaticRoute[] = [];
  for (const route of routes) {
    const parser = route.body === undefined ? undefined : ctx.bodies?.[route.body];
    if (route.body !== undefined && parser === undefined) throw new TypeError(`${route.path}: no ${route.body} body parser`);
    const body = parser === undefined ? [] : [parser];
    const guard = ctx.guard(route.permission);
    const before = route.before ?? [];
    const admit = ctx.bodyFirst === true ? [...body, ...before, ...guard] : [...guard, ...before, ...body];
    const handlers: RequestHandler[] = [
      // The guards, refusals and body parser in one router layer (api/http/one-layer.ts).
      ...(admit.length > 0 ? [inOneLayer(admit)] : []),
      (req, res, next) => route.handle(ctx, req, res, next),
    ];
    const expressRoute = router.route(route.path);
    if (route.anyMethod === true) expressRoute.all(...handlers);
    else expressRoute[route.method](...handlers);
    mounted.push({ method: route.method, path: route.path, route: expressRoute, handlers, hot: route.hot === true });
  }
  if (ctx.methodNotAllowed !== false) {
    for (const [path, methods] of allowedMethods(routes)) router.all(path, methodNotAllowed(methods));
  }
  return mounted;
}

/**
 * Routes of a table that a cold start's first request does not need (bulk jobs, resumable
 * uploads, the proofs): declared in a module of their own, which is imported, with its zod
 * schemas, on the first request under one of `prefixes` (docs/decisions.md "Speed"). Their
 * answers are those of routes mounted at start: the same handlers, 405s and 404s.
 */
export interface RouteGroup<P = Permission, C = RouteContext> {
  /** What the log names when it cannot be loaded (its request is answered 503, the next one retries). */
  name: string;
  /** The paths inside the table's router the group owns, with everything below them; no other route of the table is there. */
  prefixes: readonly string[];
  load: () => Promise<ReadonlyArray<Route<P, C>>>;
}

/**
 * Registers `group` on `router` after the table's routes: a request under one of its prefixes
 * loads the group (once) into a router of its own, mounted without a path, so `req.url`,
 * `req.baseUrl` and `req.route` are what they were with the routes on `router` itself; any other
 * request passes by. Express matches paths case-insensitively and with an optional trailing
 * slash, and so does the prefix test. The handler's `load()` is what
 * test/openapi/served-routes.test.ts walks.
 */
export function mountRouteGroup<P, C extends TableContext<P>>(
  router: Pick<Router, 'use'>,
  group: RouteGroup<P, C>,
  ctx: C,
  logger: Logger,
): void {
  const prefixes = group.prefixes.map((prefix) => prefix.toLowerCase());
  const owns = (path: string): boolean => {
    const lower = path.toLowerCase();
    return prefixes.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
  };
  const routes = lazyHandler(group.name, logger, async () => {
    const loaded = await group.load();
    const outside = loaded.filter((route) => !owns(route.path));
    if (outside.length > 0) throw new TypeError(`${group.name}: ${outside.map((r) => r.path).join(', ')} outside ${prefixes.join(', ')}`);
    const inner = Router();
    mountRoutes(inner, loaded, ctx);
    return inner;
  });
  const serve: RequestHandler = (req, res, next) => (owns(req.path) ? routes(req, res, next) : next());
  const handler: LazyHandler = Object.assign(serve, { load: () => routes.load() });
  router.use(handler);
}

/** Each path of `routes` with the methods it serves, in declaration order. */
export function allowedMethods(routes: ReadonlyArray<Pick<Route<unknown, never>, 'path' | 'method'>>): Map<string, string[]> {
  const allowed = new Map<string, string[]>();
  for (const { path, method } of routes) allowed.set(path, [...(allowed.get(path) ?? []), method.toUpperCase()]);
  return allowed;
}
