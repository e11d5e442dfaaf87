import { Router } from 'express';
import type { ApiDeps } from '../deps.js';
import { renderV1Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { guardFactory, jsonBody, methodNotAllowed } from '../http/guards.js';
import { corsPreflight } from '../middleware/cors.js';
import { mountSetA, SET_A_ROUTES } from './set-a.js';
import { mountSetB, SET_B_ROUTES } from './set-b.js';

/**
 * The /v1 generation (SPEC "v1 Set A", "v1 Set B"): both endpoint sets are served, each with its
 * own field names and its own rate table (docs/limits.md). Errors use the v1 body
 * {error:{code, message, details}} with the codes of v2; unknown endpoints are a JSON 404.
 * Sandbox requests (res.locals.sandbox) are served the same and counted apart.
 */
export function createV1Router(deps: ApiDeps): Router {
  const router = Router();
  const v1Guard = guardFactory(deps, 'v1');
  const json = jsonBody(deps.config.MAX_JSON_BYTES);

  router.use(corsPreflight({ anyClientKeyAllows: deps.anyClientKeyAllows }));
  mountSetA(router, { deps, json, guard: (permission) => v1Guard(permission, 'v1a') });
  mountSetB(router, { deps, json, guard: (permission) => v1Guard(permission, 'v1b') });

  for (const [path, methods] of [...SET_A_ROUTES, ...SET_B_ROUTES]) router.all(path, methodNotAllowed(methods));
  router.use(notFound(renderV1Error));
  router.use(errorHandler({ render: renderV1Error, logger: deps.logger }));
  return router;
}
