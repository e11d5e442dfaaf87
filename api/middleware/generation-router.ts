/**
 * What /v1 and /v2 are each built from, in one place: the handlers every request of a generation
 * crosses in one router layer (CORS preflight, no-store, caller identification, malformed-path
 * refusal), its route table behind the caller guards, and the 404 and the error handler in its own
 * envelope (docs/api.md "v1 errors", "v2 errors"). A generation differs only in its table, how its
 * paths are counted (docs/limits.md) and its envelope.
 */
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { ApiDeps } from '../deps.js';
import type { ErrorRenderer } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { inOneLayer } from '../http/one-layer.js';
import type { StaticRoute } from '../http/exact-routes.js';
import { mountRouteGroup, mountRoutes, type Route, type RouteContext, type RouteGroup } from '../http/route-table.js';
import { corsPreflight } from './cors.js';
import { callerGuards } from './guards.js';
import { jsonBody } from './json-body.js';
import { rejectMalformedPath } from './path-encoding.js';
import type { LimitClass } from './rate-limit.js';
import { noStore } from './security-headers.js';

export interface GenerationOptions {
  generation: 'v1' | 'v2';
  routes: readonly Route[];
  /** Routes loaded on the first request under their prefix, after `routes` (api/http/route-table.ts RouteGroup). */
  groups?: readonly RouteGroup[];
  /** Which rate window and quota a path counts against (docs/limits.md). */
  limitClassOf: (path: string) => LimitClass;
  renderError: ErrorRenderer;
}

export interface GenerationRouter {
  router: Router;
  /** The handlers before the routes, for a dispatch that skips the router (api/http/exact-routes.ts). */
  common: RequestHandler[];
  mounted: StaticRoute[];
  unknown: RequestHandler;
  onError: ErrorRequestHandler;
}

export function createGenerationRouter(deps: ApiDeps, options: GenerationOptions): GenerationRouter {
  const router = Router();
  const { identify, guard } = callerGuards(deps, options.generation, options.limitClassOf);
  const json = jsonBody({ limitBytes: deps.config.MAX_JSON_BYTES, drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES });
  const common = [corsPreflight({ anyClientKeyAllows: deps.anyClientKeyAllows }), noStore(), ...identify, rejectMalformedPath()];
  const unknown = notFound(options.renderError);
  const onError = errorHandler({ render: options.renderError, logger: deps.logger });

  // One router layer for what every request of the generation crosses (api/http/one-layer.ts).
  router.use(inOneLayer(common));
  const ctx: RouteContext = { deps, guard, json, bodies: { json } };
  const mounted = mountRoutes(router, options.routes, ctx);
  for (const group of options.groups ?? []) mountRouteGroup(router, group, ctx, deps.logger);
  router.use(unknown);
  router.use(onError);
  return { router, common, mounted, unknown, onError };
}
