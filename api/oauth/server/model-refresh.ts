/**
 * Refresh tokens for the @node-oauth/oauth2-server model: rotation and replay (docs/decisions.md
 * "Enterprise JWT and OAuth 2.0"; RFC 9700 §4.14.2).
 *  - A refresh rotates its refresh token in the same transaction that stores the successors
 *    (`storeIssuedTokens`), so a refused refresh (wider scope, wrong client, bad request, a failure
 *    while saving) leaves the presented token working. The library calls `revokeToken` before it
 *    checks the requested scope; revoking there would spend the token on a request that is then
 *    refused, and the client's retry would look like a replay and revoke the whole grant.
 *  - A rotated-out refresh token presented again, or two refreshes racing with one token, revoke
 *    the whole grant: one of its two holders is not the client.
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import type { RefreshTokenModel } from '@node-oauth/oauth2-server';
import type { NewOAuthToken, OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import type { ClientById } from './model-clients.js';
import { findUnspent, grantUser, type OAuthUser } from './model-grant.js';
import { generateOAuthSecret, hashOAuthSecret } from '../../../shared/oauth/tokens.js';

const { InvalidGrantError } = OAuth2Server;

export type RefreshModel = Pick<RefreshTokenModel, 'generateRefreshToken' | 'getRefreshToken' | 'revokeToken'>;

export function refreshModel(store: OAuthServerStore, findClient: ClientById): RefreshModel {
  return {
    generateRefreshToken: () => Promise.resolve(generateOAuthSecret('refreshToken')),

    async getRefreshToken(refreshToken) {
      // Rotated out, or revoked (with its grant, or with its consenting API key).
      const found = await findUnspent(
        store,
        'refreshToken',
        refreshToken,
        (hash) => store.findRefreshToken(hash),
        (t) => t.revokedAt !== null,
      );
      if (!found) return false;
      if (found.accountPlan !== 'enterprise') return false;
      const client = await findClient(found.clientId);
      if (!client) return false;
      return {
        refreshToken,
        refreshTokenExpiresAt: found.expiresAt,
        scope: found.scope,
        client,
        user: { ...grantUser(found), rotatesRefreshTokenHash: hashOAuthSecret(refreshToken) } satisfies OAuthUser,
      };
    },

    /**
     * Called by the library after `getRefreshToken` and before it checks the scope: it revokes
     * nothing (see the header); `saveToken` rotates. The token was found unrevoked just now.
     */
    revokeToken(token) {
      return Promise.resolve((token.user as OAuthUser).rotatesRefreshTokenHash !== undefined);
    },
  };
}

/**
 * Store a new access token and its refresh token. On a refresh (`rotated`: the presented refresh
 * token's hash) the presented token is revoked in the same transaction; if another request rotated
 * it first, the grant is revoked and the refresh refused as a replay.
 */
export async function storeIssuedTokens(
  store: OAuthServerStore,
  rotated: string | undefined,
  access: NewOAuthToken,
  refresh: NewOAuthToken | undefined,
): Promise<void> {
  if (rotated === undefined || !refresh) {
    await store.insertTokens(access, refresh);
    return;
  }
  if (!(await store.rotateRefreshToken(rotated, access, refresh))) {
    // Another request rotated this token first: two holders, as with a replay.
    await store.revokeGrant(access.grantId);
    throw new InvalidGrantError('Invalid grant: refresh token is invalid');
  }
}
