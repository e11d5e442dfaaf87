import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import type { ApiDeps } from './deps.js';
import { renderV2Error } from './http/envelopes.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { buildOpenApiDocument } from './openapi.js';
import { probeDependencies } from './readiness.js';
import { requestId } from './middleware/request-id.js';
import { requestLog } from './middleware/request-log.js';
import { createV1Router } from './v1/router.js';
import { createV2Router } from './v2/router.js';
import { httpsOnly } from './middleware/https-only.js';
import { detectSandbox } from './middleware/sandbox.js';
import './http/context.js';

export interface AppOptions {
  /** Extra routers mounted before the catch-all (v1, realtime), each owning its prefix. */
  mounts?: Array<{ prefix: string; router: RequestHandler }>;
}

const SDK_BUNDLE = path.join(import.meta.dirname, '..', 'shared', 'sdk', 'dist', 'sha224.min.js');

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Builds the Express app; listening is separate so tests drive it in process. */
export function createApp(deps: ApiDeps, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(deps.config.TRUST_PROXY));
  app.set('etag', false);
  app.use(requestId());
  app.use(requestLog(deps.logger));
  app.use(httpsOnly({ enforce: deps.config.TLS_CERT !== undefined || deps.config.TRUST_PROXY !== 'false', httpsPort: deps.config.TLS_CERT ? deps.config.PORT : undefined }));
  app.use(detectSandbox({ host: deps.config.SANDBOX_HOST, port: deps.config.SANDBOX_PORT }));

  // Probes and documents are not API endpoints: no credentials (docs/decisions.md).
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const answers = await probeDependencies(deps, 2000);
    const ready = Object.values(answers).every(Boolean);
    const checks = Object.fromEntries(Object.entries(answers).map(([name, ok]) => [name, ok ? 'ok' : 'failed']));
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks });
  });
  const openapi = buildOpenApiDocument();
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  if (existsSync(SDK_BUNDLE)) {
    // The client library (issue 7) at a stable path: cacheable for an hour, revalidated by ETag.
    const bundle = readFileSync(SDK_BUNDLE);
    const etag = `"${createHash('sha256').update(bundle).digest('base64url').slice(0, 27)}"`;
    app.get('/sdk/sha224.min.js', (req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('ETag', etag);
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.headers['if-none-match'] === etag) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.send(bundle);
    });
  }

  // The sandbox serves /v1 only (SPEC "Versioning": the sandbox also uses the /v1 prefix); the
  // probes and public documents above answer on it too.
  const unknownOnSandbox = notFound(renderV2Error);
  app.use((req, res, next) => (res.locals.sandbox === true && req.path !== '/v1' && !req.path.startsWith('/v1/') ? unknownOnSandbox(req, res, next) : next()));
  app.use('/v2', createV2Router(deps));
  app.use('/v1', createV1Router(deps));
  for (const mount of options.mounts ?? []) app.use(mount.prefix, mount.router);
  app.use(notFound(renderV2Error));
  app.use(errorHandler({ render: renderV2Error, logger: deps.logger }));
  return app;
}
