/**
 * Access tokens for the @node-oauth/oauth2-server model, and the saving of every token pair
 * (docs/decisions.md "Enterprise JWT and OAuth 2.0"): a token is issued only to an Enterprise
 * account, and a stored token stops working once it is revoked, its grant is, the consent or API key
 * it was issued under is (the store reads it as revoked: model-grant.ts), or its account leaves the
 * Enterprise plan. Tokens are stored as their SHA-256 only; refresh tokens rotate (model-refresh.ts).
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import type { AuthorizationCodeModel } from '@node-oauth/oauth2-server';
import type { OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import type { AccountStore } from '../../../shared/store/types.js';
import type { ClientById } from './model-clients.js';
import { storeIssuedTokens } from './model-refresh.js';
import { grantIdOf, grantUser, type OAuthUser } from './model-grant.js';
import { generateOAuthSecret, hashOAuthSecret, isOAuthSecret } from '../../../shared/oauth/tokens.js';

const { InvalidGrantError, ServerError } = OAuth2Server;

export type TokenModel = Pick<AuthorizationCodeModel, 'generateAccessToken' | 'saveToken' | 'getAccessToken'>;

export function tokenModel(store: OAuthServerStore, accounts: Pick<AccountStore, 'getAccount'>, findClient: ClientById): TokenModel {
  async function assertEnterprise(accountId: string): Promise<void> {
    const account = await accounts.getAccount(accountId);
    if (account?.plan !== 'enterprise') throw new InvalidGrantError('Invalid grant: the account may not use OAuth');
  }

  return {
    generateAccessToken: () => Promise.resolve(generateOAuthSecret('accessToken')),

    async saveToken(token, client, user) {
      const owner = user as OAuthUser;
      const holder = grantUser({ ...owner, grantId: grantIdOf(owner) });
      await assertEnterprise(owner.accountId);
      const scope = token.scope ?? [];
      if (!token.accessTokenExpiresAt) throw new ServerError('Server error: access token has no expiry');
      const base = { clientId: client.id, ...holder, scope };
      const access = { ...base, tokenHash: hashOAuthSecret(token.accessToken), expiresAt: token.accessTokenExpiresAt };
      const refresh =
        token.refreshToken && token.refreshTokenExpiresAt
          ? { ...base, tokenHash: hashOAuthSecret(token.refreshToken), expiresAt: token.refreshTokenExpiresAt }
          : undefined;
      await storeIssuedTokens(store, owner.rotatesRefreshTokenHash, access, refresh);
      return {
        accessToken: token.accessToken,
        accessTokenExpiresAt: token.accessTokenExpiresAt,
        refreshToken: token.refreshToken,
        refreshTokenExpiresAt: token.refreshTokenExpiresAt,
        scope,
        client,
        user: holder,
      };
    },

    async getAccessToken(accessToken) {
      if (!isOAuthSecret('accessToken', accessToken)) return false;
      const found = await store.findAccessToken(hashOAuthSecret(accessToken));
      if (!found || found.revokedAt !== null || found.accountPlan !== 'enterprise') return false;
      const client = await findClient(found.clientId);
      if (!client) return false;
      return { accessToken, accessTokenExpiresAt: found.expiresAt, scope: found.scope, client, user: grantUser(found) };
    },
  };
}
