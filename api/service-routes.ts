/**
 * The service routes of the node, in the one route shape (api/http/route-table.ts): the probes,
 * the metrics, the public documents and the client library's files; and, in one list, the trees
 * that are not API endpoints (pages and their assets). Each table is mounted by api/app.ts where
 * the request pipeline needs it (the metrics before the HTTPS redirect, the rest after /v2) and
 * documented by api/openapi.ts. The documents are built on their first request, as is their code
 * (api/lazy.ts): the declaration is light, the handler lazy.
 */
import type { RequestHandler } from 'express';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../shared/errors.js';
import { QUEUE_BOARD_PATH } from './admin/queue-board.js';
import type { ApiDeps } from './deps.js';
import { SERVICE_DOCS } from './docs/openapi-public.js';
import type { Route, TableContext } from './http/route-table.js';
import { metricsEndpoint } from './middleware/metrics-endpoint.js';
import { probeDependencies } from './readiness.js';

/** Who may call a service route: anyone, or Prometheus with METRICS_TOKEN (checked by the endpoint itself). */
export type ServicePermission = 'public' | 'metrics';

export interface ServiceContext extends TableContext<ServicePermission> {
  deps: ApiDeps;
  /** /openapi.json and /asyncapi.json, each built on its first request (api/app.ts). */
  openapi: RequestHandler;
  asyncapi: RequestHandler;
  /** The client library's files (api/http/client-library.ts), read once at start. */
  sdk: RequestHandler;
}

type ServiceRoute = Route<ServicePermission, ServiceContext>;

/** The metrics endpoint answers 404 unless METRICS_TOKEN is set, then 401 without it: it is its own guard. */
export const METRICS_ROUTE: ServiceRoute = {
  method: 'get',
  path: '/metrics',
  permission: 'metrics',
  handle: (ctx, req, res, next) => metricsEndpoint({ metrics: ctx.deps.metrics, token: ctx.deps.config.METRICS_TOKEN })(req, res, next),
  doc: SERVICE_DOCS.metrics,
};

/** Probes and documents are not API endpoints: no credentials (docs/decisions.md). */
export const SERVICE_ROUTES: readonly ServiceRoute[] = [
  {
    method: 'get',
    path: '/healthz',
    permission: 'public',
    handle: (_ctx, _req, res) => {
      res.json({ status: 'ok' });
    },
    doc: SERVICE_DOCS.health,
  },
  {
    method: 'get',
    path: '/readyz',
    permission: 'public',
    handle: async (ctx, _req, res) => {
      const answers = await probeDependencies(ctx.deps, 2000);
      const ready = Object.values(answers).every(Boolean);
      const checks = Object.fromEntries(Object.entries(answers).map(([name, ok]) => [name, ok ? 'ok' : 'failed']));
      // Every 503 says when to ask again (docs/api.md "Errors"); a probe retries on its own period anyway.
      if (!ready) res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
      res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
    },
    doc: SERVICE_DOCS.readiness,
  },
  // The public documents and files answer HEAD, CORS preflights and a 405 themselves (api/http/public-resource.ts).
  {
    method: 'get',
    path: '/openapi.json',
    permission: 'public',
    anyMethod: true,
    handle: (ctx, req, res, next) => ctx.openapi(req, res, next),
    doc: SERVICE_DOCS.openapi,
  },
  {
    method: 'get',
    path: '/asyncapi.json',
    permission: 'public',
    anyMethod: true,
    handle: (ctx, req, res, next) => ctx.asyncapi(req, res, next),
    doc: SERVICE_DOCS.asyncapi,
  },
];

const sdkRoute = (path: string, doc: ServiceRoute['doc']): ServiceRoute => ({
  method: 'get',
  path,
  permission: 'public',
  anyMethod: true,
  handle: (ctx, req, res, next) => ctx.sdk(req, res, next),
  doc,
});

/** The client-side SHA-224 library (README "Client-side SHA-224 library"). */
export const CLIENT_LIBRARY_ROUTES: readonly ServiceRoute[] = [
  sdkRoute('/sdk/sha224.min.js', SERVICE_DOCS.sdkScript),
  sdkRoute('/sdk/sha224.mjs', SERVICE_DOCS.sdkModule),
  sdkRoute('/sdk/manifest.json', SERVICE_DOCS.sdkManifest),
  // The content-addressed copies the manifest names; any other name falls through to the 404.
  sdkRoute('/sdk/:asset', SERVICE_DOCS.sdkAsset),
];

/** No service route has a guard of its own handlers; none answers a 405 it did not declare. */
export const SERVICE_GUARDS: Pick<ServiceContext, 'guard' | 'methodNotAllowed'> = { guard: () => [], methodNotAllowed: false };

/** The security requirement each service permission documents. */
export function serviceSecurity(permission: ServicePermission): Array<Record<string, string[]>> {
  return permission === 'metrics' ? [{ MetricsToken: [] }] : [];
}

/**
 * The trees of the node that are not API endpoints, and so not in the OpenAPI document: HTML pages
 * and the files they load. Every other path the node serves is a documented route
 * (test/openapi/served-routes.test.ts walks the app to prove it).
 */
export const NON_API_TREES = {
  /** The documentation site: HTML pages of the guides, Swagger UI and their assets (api/docs/site.ts). */
  docs: '/docs',
  /** The dashboard's pages and assets (api/dashboard/serve.ts); its JSON API below MANAGEMENT_BASE is documented. */
  dashboard: '/dashboard',
  /** The operators' queue UI (docs/operating.md "Queue UI"), distributed mode with ADMIN_TOKEN only. */
  queueBoard: QUEUE_BOARD_PATH,
} as const;
