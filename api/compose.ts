import type { Express } from 'express';
import type { Principal } from '../shared/auth/principal.js';
import { createAuthenticator, type TokenVerifier } from '../shared/auth/credentials.js';
import { createJwtVerifier } from '../shared/auth/jwt.js';
import { createOAuthVerifier, routeBearerTokens } from './oauth/server/verifier.js';
import type { BlobStore } from '../shared/blob/types.js';
import type { Config } from '../shared/config.js';
import { maxFileBytes } from '../shared/limits/file-limits.js';
import type { RequestLimiter } from '../shared/limits/limiter.js';
import type { PlanCatalog } from '../shared/limits/plans.js';
import type { Logger } from '../shared/log.js';
import { processMetrics, type Metrics } from '../shared/metrics/catalogue.js';
import { jobRecorder } from '../shared/metrics/record.js';
import type { JobQueue } from '../shared/queue/types.js';
import type { AccountStore } from '../shared/store/types.js';
import { createApp, type AppOptions } from './app.js';
import { clientDomainIndex } from './client-domain-index.js';
import type { ApiDeps, UploadEndpoint } from './deps.js';
import { JobExecutor } from './jobs/executor.js';
import { createOAuthMounts } from './oauth/router.js';

export interface ApiEngines {
  config: Config;
  logger: Logger;
  store: AccountStore;
  queue: JobQueue;
  blobs: BlobStore;
  limiter: RequestLimiter;
  catalog: PlanCatalog;
  bearerVerifiers?: TokenVerifier[];
  /** Default: this process's registry. */
  metrics?: Metrics;
}

/**
 * The plan's size limit (docs/limits.md), never above the operator's ceilings MAX_FILE_BYTES
 * (multipart and URL bodies) and MAX_STREAM_BYTES (/v2/stream); client keys (public, in browser
 * code) never above CLIENT_KEY_MAX_UPLOAD_BYTES.
 */
export function planUploadLimits(config: Config, catalog: PlanCatalog): (principal: Principal, endpoint: UploadEndpoint) => number {
  const planLimit = planUploadLimit(config, catalog);
  return (principal, endpoint) => {
    const limit = planLimit(principal, endpoint);
    return principal.keyType === 'client' ? Math.min(limit, config.CLIENT_KEY_MAX_UPLOAD_BYTES) : limit;
  };
}

function planUploadLimit(config: Config, catalog: PlanCatalog): (principal: Principal, endpoint: UploadEndpoint) => number {
  return ({ plan }, endpoint) => {
    switch (endpoint) {
      case 'v1-file':
        return Math.min(maxFileBytes(catalog, plan, 'v1', 'file'), config.MAX_FILE_BYTES);
      case 'v1-url':
        return Math.min(maxFileBytes(catalog, plan, 'v1', 'url'), config.MAX_FILE_BYTES);
      case 'v2-file':
        return Math.min(maxFileBytes(catalog, plan, 'v2', 'file'), config.MAX_FILE_BYTES);
      case 'v2-stream':
        return Math.min(maxFileBytes(catalog, plan, 'v2', 'stream'), config.MAX_STREAM_BYTES);
    }
  };
}

/** Wires the API's dependencies; the composition roots (embedded, api/main) call this. */
export function composeApi(engines: ApiEngines, options: AppOptions = {}): { app: Express; deps: ApiDeps } {
  const { config } = engines;
  // Enterprise bearer tokens (SPEC "Authentication" rules 7-8, docs/auth.md): JWTs when JWT_SECRET
  // is set; OAuth 2.0 access tokens always (the store holds clients, codes and tokens).
  const bearerVerifiers = engines.bearerVerifiers ?? [
    routeBearerTokens({
      jwt: config.JWT_SECRET
        ? createJwtVerifier({ secret: config.JWT_SECRET, issuer: config.JWT_ISSUER, store: engines.store })
        : undefined,
      oauth: createOAuthVerifier({ store: engines.store.oauthServer }),
    }),
  ];
  // /oauth/* and the RFC 8414 metadata under /.well-known.
  const mounts = [
    ...createOAuthMounts({ store: engines.store, logger: engines.logger, publicUrl: config.PUBLIC_URL }),
    ...(options.mounts ?? []),
  ];
  const metrics = engines.metrics ?? processMetrics();
  const deps: ApiDeps = {
    config,
    logger: engines.logger,
    store: engines.store,
    queue: engines.queue,
    blobs: engines.blobs,
    authenticator: createAuthenticator({ store: engines.store, bearerVerifiers }),
    executor: new JobExecutor({
      queue: engines.queue,
      inlineMaxBytes: config.INLINE_MAX_BYTES,
      syncTimeoutMs: config.syncTimeoutMs,
      jobs: jobRecorder(metrics),
    }),
    limiter: engines.limiter,
    catalog: engines.catalog,
    maxUploadBytes: planUploadLimits(config, engines.catalog),
    anyClientKeyAllows: clientDomainIndex(engines.store),
    metrics,
  };
  return { app: createApp(deps, { ...options, mounts, oauth: true }), deps };
}
