import type { RequestListener } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import { queueBoard, queueBoardEnabled } from './admin/queue-board.js';
import type { ApiDeps } from './deps.js';
import { publicJson } from './docs/public-document.js';
import type { OpenApiDocument } from './docs/openapi-servers.js';
import { clientLibrary } from './http/client-library.js';
import { renderV2Error } from './http/envelopes.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { probeDependencies } from './readiness.js';
import { requestId } from './middleware/request-id.js';
import { requestLog } from './middleware/request-log.js';
import { generationOf, httpMetrics } from './middleware/http-metrics.js';
import { traceContext } from './middleware/trace-context.js';
import { mountRoutes } from './http/route-table.js';
import {
  CLIENT_LIBRARY_ROUTES,
  METRICS_ROUTE,
  NON_API_TREES,
  SERVICE_GUARDS,
  SERVICE_ROUTES,
  type ServiceContext,
} from './service-routes.js';
import { createV1Router } from './v1/router.js';
import { DASHBOARD_DIST } from './dashboard-dist.js';
import { dashboardPages } from './dashboard/serve.js';
import { lazyHandler } from './lazy.js';
import { MANAGEMENT_BASE } from './management/routes.js';
import { createV2Router, V2_PREFIX } from './v2/router.js';
import { tusProtocol } from './middleware/tus-protocol.js';
import { LOG_PUBLIC_ROUTES } from './log-routes.js';
import { httpsOnly } from './middleware/https-only.js';
import { parseTrustProxy } from './http/client-address.js';
import { rejectMalformedPath } from './middleware/path-encoding.js';
import { detectSandbox } from './middleware/sandbox.js';
import { inOneLayer } from './http/one-layer.js';
import { hotPathListener } from './http/hot-path.js';
import './http/context.js';

export interface AppOptions {
  /** Extra routers mounted before the catch-all (v1, realtime), each owning its prefix. */
  mounts?: Array<{ prefix: string; router: RequestHandler }>;
  /** The OAuth endpoints are among the mounts, so /openapi.json documents them. */
  oauth?: boolean;
  /** The built dashboard (default dist/dashboard). */
  dashboardDir?: string;
}

export interface App {
  app: Express;
  /** The node's 'request' listener: the hot routes (api/http/hot-path.ts), unless HOT_PATH=off, then `app`. */
  listener: RequestListener;
}

/** Builds the Express app and the listener in front of it; listening is separate so tests drive it in process. */
export function createApp(deps: ApiDeps, options: AppOptions = {}): App {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(deps.config.TRUST_PROXY));
  app.set('etag', false);
  // Every request crosses these: one router layer for the four (api/http/one-layer.ts).
  const every = [httpMetrics(deps.metrics), requestId(), traceContext(), requestLog(deps.logger)];
  app.use(inOneLayer(every));
  const service: ServiceContext = {
    deps,
    ...SERVICE_GUARDS,
    // Built once, with the dashboard's management API (the SDKs are generated without it), on its
    // first request rather than at start, where it took a fifth of a cold start's CPU, and so is its
    // code (api/lazy.ts); each request gets its servers and OAuth URLs (PUBLIC_URL, else the origin reached).
    openapi: lazyHandler('the OpenAPI document', deps.logger, async () => {
      const [{ buildOpenApiDocument }, { localizeDocument, documentOrigins }, { ORIGIN_HEADERS }] = await Promise.all([
        import('./openapi.js'),
        import('./docs/openapi-servers.js'),
        import('./docs/asyncapi.js'),
      ]);
      let openapi: OpenApiDocument | undefined;
      const openapiDocument = (): OpenApiDocument =>
        (openapi ??= buildOpenApiDocument({ oauth: options.oauth === true, management: true }));
      return publicJson((req) => localizeDocument(openapiDocument(), documentOrigins(deps.config, req)), {
        vary: deps.config.PUBLIC_URL === undefined ? ORIGIN_HEADERS : undefined,
      });
    }),
    asyncapi: lazyHandler('the AsyncAPI document', deps.logger, async () => {
      const { buildAsyncApiDocument, ORIGIN_HEADERS, realtimeOrigin } = await import('./docs/asyncapi.js');
      return publicJson((req) => buildAsyncApiDocument(realtimeOrigin(deps.config, req)), { vary: ORIGIN_HEADERS });
    }),
    sdk: clientLibrary(),
  };
  // Before the HTTPS redirect: Prometheus scrapes pods directly, over plain HTTP (docs/operating.md).
  mountRoutes(app, [METRICS_ROUTE], service);
  // The sandbox serves /v1 only (docs/api.md "Versioning": the sandbox also uses the /v1 prefix); the
  // probes and public documents answer on it too. /v2 is refused here, so the API can be mounted
  // before the probes and documents (none shares its prefix) and its requests cross no layer of
  // theirs; every other path is refused after them, below.
  const unknownOnSandbox = notFound(renderV2Error);
  const refuseV2OnSandbox: RequestHandler = (req, res, next) => {
    if (res.locals.sandbox !== true) return next();
    const generation = generationOf(req.url);
    return generation === 'v2' || generation === 'ws' ? unknownOnSandbox(req, res, next) : next();
  };
  const v2 = createV2Router(deps);
  // Before either generation; the hot path runs them too (a /v1 path passes the last two untouched).
  const gate = [
    httpsOnly({ enforce: deps.config.TLS_CERT !== undefined || deps.config.TRUST_PROXY !== 'false', publicUrl: deps.config.PUBLIC_URL }),
    detectSandbox({ host: deps.config.SANDBOX_HOST, port: deps.config.SANDBOX_PORT }),
    refuseV2OnSandbox,
    tusProtocol({ maxBytes: deps.config.MAX_STREAM_BYTES }),
  ];
  app.use(inOneLayer([...gate, v2.exact]));
  app.use(V2_PREFIX, v2.router);

  // Probes, documents and the client library (api/service-routes.ts); the documentation site is pages.
  // With the transparency log's public documents and keys (docs/proving.md): no credentials either.
  mountRoutes(app, [...SERVICE_ROUTES, ...CLIENT_LIBRARY_ROUTES, ...LOG_PUBLIC_ROUTES], service);
  app.use(
    NON_API_TREES.docs,
    lazyHandler('the documentation site', deps.logger, async () => (await import('./docs/site.js')).docsSite(deps.config)),
  );

  // The sandbox's refusal of every path but /v1 (see refuseV2OnSandbox above).
  app.use((req, res, next) =>
    res.locals.sandbox === true && req.path !== '/v1' && !req.path.startsWith('/v1/') ? unknownOnSandbox(req, res, next) : next(),
  );
  // Operators' queue UI, distributed mode with ADMIN_TOKEN only (docs/operating.md "Queue UI").
  if (queueBoardEnabled(deps.config)) app.use(NON_API_TREES.queueBoard, queueBoard(deps.config, deps.logger));
  // The dashboard: its management API and its pages (docs/decisions.md "Dashboard and accounts");
  // the API is loaded on its first request (api/lazy.ts).
  app.use(
    MANAGEMENT_BASE,
    lazyHandler('the management API', deps.logger, async () =>
      (await import('./management/http.js')).createManagementRouter({
        config: deps.config,
        logger: deps.logger,
        store: deps.store,
        catalog: deps.catalog,
        limiter: deps.limiter,
        serviceStatus: async () => (Object.values(await probeDependencies(deps)).every(Boolean) ? 'operational' : 'degraded'),
        webhooks: deps.webhooks,
      }),
    ),
  );
  app.use(NON_API_TREES.dashboard, dashboardPages(options.dashboardDir ?? DASHBOARD_DIST));
  const v1 = createV1Router(deps);
  app.use('/v1', v1.router);
  for (const mount of options.mounts ?? []) app.use(mount.prefix, mount.router);
  app.use(rejectMalformedPath());
  app.use(notFound(renderV2Error));
  app.use(errorHandler({ logger: deps.logger }));
  // Between the app-level handlers above and /v1, only trees of other prefixes (documents, dashboard,
  // management, queue UI) and the sandbox's refusal of non-/v1 paths: none touches a /v1 request.
  const listener =
    deps.config.HOT_PATH === 'off'
      ? app
      : hotPathListener(
          app,
          [...every, ...gate],
          [
            { prefix: V2_PREFIX, ...v2.generation },
            { prefix: '/v1', ...v1 },
          ],
        );
  return { app, listener };
}
