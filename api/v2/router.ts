import type { RequestHandler, Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { renderV2Error } from '../http/envelopes.js';
import { exactDispatch } from '../http/exact-routes.js';
import { createGenerationRouter, type GenerationRouter } from '../middleware/generation-router.js';
import type { LimitClass } from '../middleware/rate-limit.js';
import { V2_ROUTE_GROUPS, V2_ROUTES } from './routes.js';

export const V2_PREFIX = '/v2';

/** Every /v2 path counts against the v2 per-second rate and the daily quota (docs/limits.md). */
const V2_LIMITS: LimitClass = { generation: 'v2' };
/**
 * A resumable upload counts once against the daily quota, when it is created (POST /v2/uploads);
 * its HEAD, PATCH and DELETE (/v2/uploads/{id}) count in the rate window only (docs/decisions.md
 * "Resumable uploads").
 */
const V2_UPLOAD_LIMITS: LimitClass = { generation: 'v2', outsideQuota: true };

export interface V2Router {
  /** Mounted at V2_PREFIX. */
  router: Router;
  /** The same routes' exact-path dispatch, run at app level before the router (api/http/exact-routes.ts). */
  exact: RequestHandler;
  /** What the router is built from, for the hot path (api/http/hot-path.ts). */
  generation: GenerationRouter;
}

/** The /v2 generation (docs/api.md "v2 endpoints"): its route table (api/v2/routes.ts) behind the caller guards, in the v2 envelope. */
export function createV2Router(deps: ApiDeps): V2Router {
  const generation = createGenerationRouter(deps, {
    generation: 'v2',
    routes: V2_ROUTES,
    groups: V2_ROUTE_GROUPS,
    limitClassOf: (path) => (path.toLowerCase().startsWith('/uploads/') ? V2_UPLOAD_LIMITS : V2_LIMITS),
    renderError: renderV2Error,
  });
  const { router, common, mounted, unknown, onError } = generation;
  return { router, exact: exactDispatch({ prefix: V2_PREFIX, common, routes: mounted, onError, passed: unknown }), generation };
}
