import { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { renderV2Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { callerGuards } from '../http/guards.js';
import { jsonBody } from '../http/json-body.js';
import { inOneLayer } from '../http/one-layer.js';
import { mountRoutes } from '../http/route-table.js';
import { corsPreflight } from '../middleware/cors.js';
import { rejectMalformedPath } from '../middleware/path-encoding.js';
import { noStore } from '../middleware/security-headers.js';
import { V2_ROUTES } from './routes.js';

/** The /v2 generation (SPEC "v2"): its route table (api/v2/routes.ts) behind the caller guards, in the v2 envelope. */
export function createV2Router(deps: ApiDeps): Router {
  const router = Router();
  const { identify, guard } = callerGuards(deps, 'v2', () => 'v2');
  const json = jsonBody({ limitBytes: deps.config.MAX_JSON_BYTES, drainMaxBytes: deps.config.UPLOAD_DRAIN_MAX_BYTES });

  // One router layer for what every request of the generation crosses (api/http/one-layer.ts).
  router.use(inOneLayer([corsPreflight({ anyClientKeyAllows: deps.anyClientKeyAllows }), noStore(), ...identify, rejectMalformedPath()]));
  mountRoutes(router, V2_ROUTES, { deps, guard, json });
  router.use(notFound(renderV2Error));
  router.use(errorHandler({ render: renderV2Error, logger: deps.logger }));
  return router;
}
