import type { Principal } from '../shared/auth/principal.js';
import { createAuthenticator, type TokenVerifier } from '../shared/auth/credentials.js';
import type { Config } from '../shared/config.js';
import { maxFileBytes } from '../shared/limits/file-limits.js';
import type { PlanCatalog } from '../shared/limits/plans.js';
import { processMetrics } from '../shared/metrics/catalogue.js';
import { openResumableStore } from '../shared/uploads/open.js';
import { LiveHashes } from '../shared/uploads/live-hashes.js';
import { jobRecorder } from '../shared/metrics/record.js';
import { createApp, type App } from './app.js';
import { clientDomainIndex } from './client-domain-index.js';
import type { ApiDeps, ApiEngines, UploadEndpoint } from './deps.js';
import { JobExecutor } from './jobs/executor.js';
import { onFirstUse } from './lazy.js';
import { createOAuthMounts } from './oauth/mounts.js';

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

/**
 * The handlers' dependencies and the app on a node's engines, its limiter and its catalog; only
 * api/node.ts calls this, so every node (embedded, distributed, the tests') is wired alike.
 */
export function composeApi(engines: ApiEngines, limits: Pick<ApiDeps, 'limiter' | 'catalog'>): App & { deps: ApiDeps } {
  const { config, store } = engines;
  const { logger } = engines;
  // Enterprise bearer tokens (docs/api.md "Authentication" rules 7-8, docs/auth.md): JWTs when JWT_SECRET
  // is set; OAuth 2.0 access tokens always (the store holds clients, codes and tokens). Their
  // verifiers (and jose) are loaded with the first bearer token, not at start (api/lazy.ts).
  const secret = config.JWT_SECRET;
  const bearerVerifiers = onFirstUse('the bearer token verifiers', logger, async () => {
    const [{ createOAuthVerifier, routeBearerTokens }, jwt] = await Promise.all([
      import('./oauth/server/verifier.js'),
      secret ? import('../shared/auth/jwt.js') : undefined,
    ]);
    return routeBearerTokens({
      jwt: jwt && secret ? jwt.createJwtVerifier({ secret, issuer: config.JWT_ISSUER, store }) : undefined,
      oauth: createOAuthVerifier({ store: store.oauthServer }),
    });
  });
  const bearerVerifier: TokenVerifier = { verify: async (token) => (await bearerVerifiers.get()).verify(token) };
  // /oauth/* and the RFC 8414 metadata under /.well-known.
  const mounts = createOAuthMounts({ store, logger, publicUrl: config.PUBLIC_URL });
  const metrics = engines.metrics ?? processMetrics();
  const deps: ApiDeps = {
    config,
    logger,
    store,
    queue: engines.queue,
    blobs: engines.blobs,
    authenticator: createAuthenticator({ store, bearerVerifiers: [bearerVerifier] }),
    executor: new JobExecutor({
      queue: engines.queue,
      inlineMaxBytes: config.INLINE_MAX_BYTES,
      syncTimeoutMs: config.syncTimeoutMs,
      jobs: jobRecorder(metrics),
    }),
    limiter: limits.limiter,
    catalog: limits.catalog,
    maxUploadBytes: planUploadLimits(config, limits.catalog),
    anyClientKeyAllows: clientDomainIndex(store),
    resumable: openResumableStore(config, logger),
    uploadHashes: new LiveHashes(),
    metrics,
    // Management routes and `?webhook_endpoint_id=` read it; absent, they answer 503.
    ...(engines.webhooks === undefined ? {} : { webhooks: engines.webhooks }),
    ...(engines.bulk === undefined ? {} : { bulk: engines.bulk }),
    // Loaded on first use (the ASN.1 libraries of the time-stamp authority with it), not at start.
    proof: onFirstUse('the proof services', logger, async () =>
      (await import('../shared/proof/services.js')).openProofServices(config, store, (err) =>
        logger.error({ err }, 'transparency log checkpoint failed'),
      ),
    ),
  };
  return { ...createApp(deps, { mounts, oauth: true }), deps };
}
