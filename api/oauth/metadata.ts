/**
 * Authorization server metadata (RFC 8414), served at /.well-known/oauth-authorization-server and,
 * the same document, at /.well-known/openid-configuration (RFC 8414 §5 allows both): oauth4webapi's
 * `discoveryRequest()` and openid-client's `discovery()` fetch the OpenID path unless told
 * `algorithm: 'oauth2'`. The document claims nothing of OpenID Connect (no `openid` scope, no ID
 * tokens, no `jwks_uri`), so a client asking for those is refused by the endpoints themselves.
 */
import express, { type Router } from 'express';
import { CLIENT_AUTH_METHODS, OAUTH_GRANTS, OAUTH_PATHS, OAUTH_SCOPES } from './constants.js';
import { mountRoutes } from '../http/route-table.js';
import { WELL_KNOWN_ROUTES, type MetadataContext } from './routes.js';
import type { Logger } from '../../shared/log.js';
import { oauthErrorHandler } from './errors.js';
import { issuerOf } from './issuer.js';

export { OAUTH_PATHS, WELL_KNOWN_PATHS } from './constants.js';

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
  introspection_endpoint: string;
  scopes_supported: string[];
  response_types_supported: string[];
  response_modes_supported: string[];
  grant_types_supported: string[];
  code_challenge_methods_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  revocation_endpoint_auth_methods_supported: string[];
  introspection_endpoint_auth_methods_supported: string[];
  authorization_response_iss_parameter_supported: boolean;
}

export function authorizationServerMetadata(issuer: string): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: issuer + OAUTH_PATHS.authorize,
    token_endpoint: issuer + OAUTH_PATHS.token,
    revocation_endpoint: issuer + OAUTH_PATHS.revoke,
    introspection_endpoint: issuer + OAUTH_PATHS.introspect,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...OAUTH_GRANTS],
    // RFC 9700 §2.1.1: PKCE for every client; `plain` is refused.
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    // A public client proves nothing by its id, so it may not ask about tokens (RFC 7662 §2.1).
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS.filter((m) => m !== 'none'),
    // RFC 9207: every authorization response, success or error, carries `iss`.
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * Mounted at /.well-known (./routes.ts WELL_KNOWN_ROUTES). Public and credential-free, so any origin may read it (a browser app
 * discovers too). `publicUrl` (PUBLIC_URL) fixes the issuer; without it the issuer is the origin asked.
 */
export function createOAuthMetadataRouter(logger: Logger, publicUrl?: string): Router {
  const router = express.Router();
  const ctx: MetadataContext = {
    guard: () => [],
    // Another method is passed on, to the node's 404, as before the table.
    methodNotAllowed: false,
    metadata: (req, res) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', 'public, max-age=3600');
      // Named by the request only without PUBLIC_URL: then a cache must key on what decides it.
      if (publicUrl === undefined) res.setHeader('Vary', 'Host, X-Forwarded-Host, X-Forwarded-Proto');
      res.json(authorizationServerMetadata(issuerOf(req, publicUrl)));
    },
  };
  mountRoutes(router, WELL_KNOWN_ROUTES, ctx);
  router.use(oauthErrorHandler(logger));
  return router;
}
