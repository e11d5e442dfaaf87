import type { ApiDeps } from '../deps.js';
import { renderV1Error } from '../http/envelopes.js';
import { createGenerationRouter, type GenerationRouter } from '../middleware/generation-router.js';
import { routeKey } from '../middleware/guards.js';
import type { LimitClass } from '../middleware/rate-limit.js';
import { CAMEL_CASE_ROUTES } from './camel-case-routes.js';
import { V1_ROUTES } from './routes.js';

const SNAKE_CASE_LIMITS: LimitClass = { generation: 'v1b' };

/**
 * The /v1 generation (docs/api.md "v1 Set A", "v1 Set B"): both endpoint sets are served, each with its
 * own field names and its own rate table (docs/limits.md). Errors use the v1 body
 * {error:{code, message, details}} with the codes of v2; unknown endpoints are a JSON 404.
 * Sandbox requests (res.locals.sandbox) are served the same and counted apart.
 */
export function createV1Router(deps: ApiDeps): GenerationRouter {
  // A Set A path counts against the tier table's per-second rate; anything else (Set B, unknown
  // paths) against the plan table's per-minute rate (docs/limits.md). Reading usage and status
  // stays outside the daily quota it reports (Route.outsideQuota).
  const classes = new Map<string, LimitClass>(
    V1_ROUTES.map((route) => [
      routeKey(route.path),
      { generation: CAMEL_CASE_ROUTES.includes(route) ? 'v1a' : 'v1b', ...(route.outsideQuota ? { outsideQuota: true } : {}) },
    ]),
  );
  return createGenerationRouter(deps, {
    generation: 'v1',
    routes: V1_ROUTES,
    limitClassOf: (path) => classes.get(routeKey(path)) ?? SNAKE_CASE_LIMITS,
    renderError: renderV1Error,
  });
}
