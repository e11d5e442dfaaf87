/**
 * The routers api/compose.ts mounts: the OAuth endpoints under /oauth and the RFC 8414 metadata
 * under /.well-known. Each is loaded on its first request, with @node-oauth/oauth2-server, not at
 * start (api/lazy.ts; docs/decisions.md "Cold start").
 */
import type { RequestHandler } from 'express';
import { lazyHandler } from '../lazy.js';
import type { OAuthRouterDeps } from './router.js';
import { OAUTH_PREFIX, WELL_KNOWN_PREFIX } from './constants.js';

export function createOAuthMounts(deps: OAuthRouterDeps): Array<{ prefix: string; router: RequestHandler }> {
  return [
    {
      prefix: OAUTH_PREFIX,
      router: lazyHandler('the OAuth endpoints', deps.logger, async () => (await import('./router.js')).createOAuthRouter(deps)),
    },
    {
      prefix: WELL_KNOWN_PREFIX,
      router: lazyHandler('the OAuth metadata', deps.logger, async () =>
        (await import('./metadata.js')).createOAuthMetadataRouter(deps.logger, deps.publicUrl),
      ),
    },
  ];
}
