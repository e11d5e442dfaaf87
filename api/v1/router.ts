import { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { renderV1Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { callerGuards, routeKey } from '../middleware/guards.js';
import { jsonBody } from '../middleware/json-body.js';
import { inOneLayer } from '../http/one-layer.js';
import { mountRoutes } from '../http/route-table.js';
import { corsPreflight } from '../middleware/cors.js';
import type { LimitClass } from '../middleware/rate-limit.js';
import { rejectMalformedPath } from '../middleware/path-encoding.js';
import { noStore } from '../middleware/security-headers.js';
import { V1_ROUTES } from './routes.js';
import { CAMEL_CASE_ROUTES } from './camel-case-routes.js';

const SNAKE_CASE_LIMITS: LimitClass = { generation: 'v1b' };

/**
 * The /v1 generation (docs/api.md "v1 Set A", "v1 Set B"): both endpoint sets are served, each with its
 * own field names and its own rate table (docs/limits.md). Errors use the v1 body
 * {error:{code, message, details}} with the codes of v2; unknown endpoints are a JSON 404.
 * Sandbox requests (res.locals.sandbox) are served the same and counted apart.
 */
export function createV1Router(deps: ApiDeps): Router {
  const router = Router();
  // A Set A path counts against the tier table's per-second rate; anything else (Set B, unknown
  // paths) against the plan table's per-minute rate (docs/limits.md). Reading usage and status
  // stays outside the daily quota it reports (Route.outsideQuota).
  const classes = new Map<string, LimitClass>(
    V1_ROUTES.map((route) => [
      routeKey(route.path),
      { generation: CAMEL_CASE_ROUTES.includes(route) ? 'v1a' : 'v1b', ...(route.outsideQuota ? { outsideQuota: true } : {}) },
    ]),
  );
  const { identify, guard } = callerGuards(deps, 'v1', (path) => classes.get(routeKey(path)) ?? SNAKE_CASE_LIMITS);
  const json = jsonBody({ limitBytes: deps.config.MAX_JSON_BYTES, drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES });

  // One router layer for what every request of the generation crosses (api/http/one-layer.ts).
  router.use(inOneLayer([corsPreflight({ anyClientKeyAllows: deps.anyClientKeyAllows }), noStore(), ...identify, rejectMalformedPath()]));
  mountRoutes(router, V1_ROUTES, { deps, json, guard });
  router.use(notFound(renderV1Error));
  router.use(errorHandler({ render: renderV1Error, logger: deps.logger }));
  return router;
}
