import { Router, type RequestHandler } from 'express';
import type { ApiDeps } from '../deps.js';
import { renderV2Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { callerGuards } from '../middleware/guards.js';
import { jsonBody } from '../middleware/json-body.js';
import { exactDispatch } from '../http/exact-routes.js';
import { inOneLayer } from '../http/one-layer.js';
import { mountRoutes } from '../http/route-table.js';
import { corsPreflight } from '../middleware/cors.js';
import type { LimitClass } from '../middleware/rate-limit.js';
import { rejectMalformedPath } from '../middleware/path-encoding.js';
import { noStore } from '../middleware/security-headers.js';
import { V2_ROUTES } from './routes.js';

export const V2_PREFIX = '/v2';

/** Every /v2 path counts against the v2 per-second rate and the daily quota (docs/limits.md). */
const V2_LIMITS: LimitClass = { generation: 'v2' };

export interface V2Router {
  /** Mounted at V2_PREFIX. */
  router: Router;
  /** The same routes' exact-path dispatch, run at app level before the router (api/http/exact-routes.ts). */
  exact: RequestHandler;
}

/** The /v2 generation (docs/api.md "v2 endpoints"): its route table (api/v2/routes.ts) behind the caller guards, in the v2 envelope. */
export function createV2Router(deps: ApiDeps): V2Router {
  const router = Router();
  const { identify, guard } = callerGuards(deps, 'v2', () => V2_LIMITS);
  const json = jsonBody({ limitBytes: deps.config.MAX_JSON_BYTES, drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES });
  const common = [corsPreflight({ anyClientKeyAllows: deps.anyClientKeyAllows }), noStore(), ...identify, rejectMalformedPath()];
  const unknown = notFound(renderV2Error);
  const onError = errorHandler({ render: renderV2Error, logger: deps.logger });

  // One router layer for what every request of the generation crosses (api/http/one-layer.ts).
  router.use(inOneLayer(common));
  const routes = mountRoutes(router, V2_ROUTES, { deps, guard, json });
  router.use(unknown);
  router.use(onError);
  return { router, exact: exactDispatch({ prefix: V2_PREFIX, common, routes, onError, passed: unknown }) };
}
