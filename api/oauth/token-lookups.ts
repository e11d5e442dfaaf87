/**
 * The two endpoints that take a token and tell or change its state, both behind the shared client
 * authentication (./client-auth.ts, the guard of their routes in ./routes.ts):
 *
 *   POST /oauth/revoke       RFC 7009. Revoking either token revokes its whole grant. An unknown token,
 *                            or another client's, is answered 200 like a revoked one (RFC 7009 §2.2), so the
 *                            endpoint reveals nothing.
 *   POST /oauth/introspect   RFC 7662, for a confidential client's own tokens
 *                            (api/oauth/server/introspection.ts).
 */
import type { Request, Response } from 'express';
import { introspectToken } from './server/introspection.js';
import type { OAuthServerStore } from '../../shared/store/oauth-server-types.js';
import { hashOAuthSecret, isOAuthSecret } from '../../shared/oauth/tokens.js';
import type { AuthenticatedClient } from './client-auth.js';
import { BASIC_CHALLENGE, OAuthEndpointError } from './errors.js';
import { issuerOf } from './issuer.js';

export interface TokenLookupDeps {
  /** The client the route's guard authenticated (./router.ts). */
  clientOf: (req: Request) => AuthenticatedClient;
  store: OAuthServerStore;
  /** PUBLIC_URL, the issuer when set (./issuer.ts). */
  publicUrl?: string;
}

export function revocationHandler(deps: TokenLookupDeps): (req: Request, res: Response) => Promise<void> {
  return async function revokeToken(req, res) {
    const { client } = deps.clientOf(req);
    const token = tokenParameter(req);
    // The prefix tells the kind, so token_type_hint is not needed (RFC 7009 §2.1 lets us ignore it).
    const found = isOAuthSecret('accessToken', token)
      ? await deps.store.findAccessToken(hashOAuthSecret(token))
      : isOAuthSecret('refreshToken', token)
        ? await deps.store.findRefreshToken(hashOAuthSecret(token))
        : undefined;
    if (found && found.clientId === client.id) await deps.store.revokeGrant(found.grantId);
    res.status(200).end();
  };
}

export function introspectionHandler(deps: TokenLookupDeps): (req: Request, res: Response) => Promise<void> {
  return async function introspect(req, res) {
    const { client, credentials } = deps.clientOf(req);
    if (credentials.method === 'none') {
      // RFC 7662 §2.1: the caller must be authorized; a public client's id proves nothing.
      throw new OAuthEndpointError(401, 'invalid_client', 'Invalid client: introspection needs the client secret', BASIC_CHALLENGE);
    }
    const token = tokenParameter(req);
    res.status(200).json(await introspectToken(deps.store, { token, clientId: client.id, issuer: issuerOf(req, deps.publicUrl) }));
  };
}

function tokenParameter(req: Request): string {
  const token: unknown = (req.body as Record<string, unknown> | undefined)?.token;
  if (typeof token !== 'string' || token === '') throw new OAuthEndpointError(400, 'invalid_request', 'Missing parameter: `token`');
  return token;
}
