/**
 * The model @node-oauth/oauth2-server calls for the authorization code grant (with PKCE) and the
 * refresh token grant. The library runs the protocol; this file only stores and finds things, and
 * adds the rules the library leaves to the model (docs/auth.md):
 *  - PKCE with S256 is required for every client, confidential or public (RFC 9700 §2.1.1);
 *  - only the Enterprise account that registered a client may authorize it;
 *  - scopes are the permission names; at least one must be requested, unknown ones are refused;
 *  - a replayed authorization code or a replayed (rotated-out) refresh token revokes every token of
 *    its grant (RFC 6749 §4.1.2, RFC 9700 §4.14.2);
 *  - a refresh rotates its refresh token in the same transaction that stores the successors, so a
 *    refused refresh (wider scope, wrong client, bad request, a failure while saving) leaves the
 *    presented token working. The library calls `revokeToken` before it checks the requested scope;
 *    revoking there would spend the token on a request that is then refused, and the client's retry
 *    would look like a replay and revoke the whole grant;
 *  - codes, tokens and client secrets are stored as SHA-256 hashes only.
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import type {
  AuthorizationCode,
  AuthorizationCodeModel,
  Client,
  RefreshToken,
  RefreshTokenModel,
  Token,
  User,
} from '@node-oauth/oauth2-server';
import { OAUTH_GRANTS, OAUTH_SCOPES } from '../constants.js';
import type { OAuthClientRecord, OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import type { AccountStore } from '../../../shared/store/types.js';
import { generateOAuthSecret, hashOAuthSecret, isOAuthSecret, oauthSecretMatches } from './tokens.js';

const { AccessDeniedError, InvalidGrantError, InvalidRequestError, InvalidScopeError, ServerError } = OAuth2Server;

export { OAUTH_GRANTS, OAUTH_SCOPES } from '../constants.js';
/** base64url(SHA-256(verifier)), unpadded: exactly 43 characters. */
const S256_CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

/** What the library passes around as the resource owner. */
export interface OAuthUser extends User {
  accountId: string;
  /** Set once a code exists: every token issued from it, and from its refreshes, shares it. */
  grantId?: string;
  /**
   * The person's consent (oauth_grants) the code is issued under, carried to every token, so ending
   * the consent in the dashboard revokes them (docs/decisions.md "Dashboard and accounts").
   */
  consentId?: string | null;
  /**
   * The API key presented as consent on the operator path, carried to every token like `consentId`,
   * so revoking the key revokes them (docs/decisions.md "Enterprise JWT and OAuth 2.0").
   */
  apiKeyId?: string | null;
  /** Set by `getRefreshToken`: the SHA-256 of the refresh token this request rotates out (in `saveToken`). */
  rotatesRefreshTokenHash?: string;
}

export interface OAuthModelOptions {
  store: OAuthServerStore;
  /** Whose plan decides whether a token may be issued (Enterprise only). */
  accounts: Pick<AccountStore, 'getAccount'>;
  /**
   * true at the token endpoint: a confidential client must present its secret (in every grant), a
   * public client must not have one. false at the authorization endpoint: lookup by client_id.
   */
  authenticateClients: boolean;
  /** Opportunistic clean-up of long-expired rows on each new code; default true. */
  purgeOnAuthorize?: boolean;
}

export type OAuthModel = AuthorizationCodeModel & RefreshTokenModel;

export function createOAuthModel(options: OAuthModelOptions): OAuthModel {
  const { store, accounts, authenticateClients, purgeOnAuthorize = true } = options;

  async function clientById(clientId: string): Promise<Client | false> {
    if (!isOAuthSecret('clientId', clientId)) return false;
    const found = await store.findClient(clientId);
    return found ? toLibraryClient(found.client) : false;
  }

  async function assertEnterprise(accountId: string): Promise<void> {
    const account = await accounts.getAccount(accountId);
    if (account?.plan !== 'enterprise') throw new InvalidGrantError('Invalid grant: the account may not use OAuth');
  }

  return {
    async getClient(clientId: string, clientSecret: string | null | undefined): Promise<Client | false> {
      if (!isOAuthSecret('clientId', clientId)) return false;
      const found = await store.findClient(clientId);
      if (!found) return false;
      if (authenticateClients) {
        if (found.secretHash === null) {
          if (clientSecret) return false;
        } else if (!clientSecret || !oauthSecretMatches(clientSecret, found.secretHash)) {
          return false;
        }
      }
      return toLibraryClient(found.client);
    },

    generateAuthorizationCode: () => Promise.resolve(generateOAuthSecret('code')),
    generateAccessToken: () => Promise.resolve(generateOAuthSecret('accessToken')),
    generateRefreshToken: () => Promise.resolve(generateOAuthSecret('refreshToken')),

    validateScope(user: User, client: Client, scope?: string[]): Promise<string[]> {
      if (!scope || scope.length === 0) {
        return Promise.reject(new InvalidScopeError(`Invalid scope: request one or more of ${OAUTH_SCOPES.join(' ')}`));
      }
      const unknown = scope.filter((s) => !OAUTH_SCOPES.includes(s));
      if (unknown.length > 0) return Promise.reject(new InvalidScopeError(`Invalid scope: unknown scope ${unknown.join(' ')}`));
      return Promise.resolve([...new Set(scope)]);
    },

    async saveAuthorizationCode(code, client, user): Promise<AuthorizationCode> {
      const owner = user as OAuthUser;
      if (owner.accountId !== client.accountId) {
        throw new AccessDeniedError('Access denied: only the account that registered the client may authorize it');
      }
      if (!code.codeChallenge || !S256_CHALLENGE_RE.test(code.codeChallenge)) {
        throw new InvalidRequestError('Invalid request: PKCE is required: send `code_challenge` with `code_challenge_method` S256');
      }
      if (code.codeChallengeMethod !== 'S256') throw new InvalidRequestError('Invalid request: `code_challenge_method` must be S256');
      const grantId = generateOAuthSecret('grantId');
      await store.insertCode(hashOAuthSecret(code.authorizationCode), {
        clientId: client.id,
        accountId: owner.accountId,
        grantId,
        redirectUri: code.redirectUri,
        scope: code.scope ?? [],
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
        expiresAt: code.expiresAt,
        consentId: owner.consentId ?? null,
        apiKeyId: owner.apiKeyId ?? null,
      });
      if (purgeOnAuthorize) void store.purgeExpired().catch(() => undefined);
      return {
        ...code,
        client,
        user: { accountId: owner.accountId, grantId, consentId: owner.consentId ?? null, apiKeyId: owner.apiKeyId ?? null },
      };
    },

    async getAuthorizationCode(authorizationCode: string): Promise<AuthorizationCode | false> {
      if (!isOAuthSecret('code', authorizationCode)) return false;
      const code = await store.findCode(hashOAuthSecret(authorizationCode));
      if (!code) return false;
      if (code.consumedAt !== null) {
        // RFC 6749 §4.1.2: a code used twice revokes what the first use obtained.
        await store.revokeGrant(code.grantId);
        return false;
      }
      const client = await clientById(code.clientId);
      if (!client) return false;
      return {
        authorizationCode,
        expiresAt: code.expiresAt,
        redirectUri: code.redirectUri,
        scope: code.scope,
        client,
        user: { accountId: code.accountId, grantId: code.grantId, consentId: code.consentId, apiKeyId: code.apiKeyId } satisfies OAuthUser,
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
      };
    },

    async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
      const consumed = await store.consumeCode(hashOAuthSecret(code.authorizationCode));
      // Lost a race with another exchange of the same code: that is a replay too.
      if (!consumed) await store.revokeGrant(grantIdOf(code.user));
      return consumed;
    },

    async saveToken(token: Token, client: Client, user: User): Promise<Token> {
      const owner = user as OAuthUser;
      const grantId = grantIdOf(owner);
      await assertEnterprise(owner.accountId);
      const scope = token.scope ?? [];
      if (!token.accessTokenExpiresAt) throw new ServerError('Server error: access token has no expiry');
      const base = {
        clientId: client.id,
        accountId: owner.accountId,
        grantId,
        consentId: owner.consentId ?? null,
        apiKeyId: owner.apiKeyId ?? null,
        scope,
      };
      const access = { ...base, tokenHash: hashOAuthSecret(token.accessToken), expiresAt: token.accessTokenExpiresAt };
      const refresh =
        token.refreshToken && token.refreshTokenExpiresAt
          ? { ...base, tokenHash: hashOAuthSecret(token.refreshToken), expiresAt: token.refreshTokenExpiresAt }
          : undefined;
      const rotated = owner.rotatesRefreshTokenHash;
      if (rotated !== undefined && refresh) {
        if (!(await store.rotateRefreshToken(rotated, access, refresh))) {
          // Another request rotated this token first: two holders, as with a replay.
          await store.revokeGrant(grantId);
          throw new InvalidGrantError('Invalid grant: refresh token is invalid');
        }
      } else {
        await store.insertTokens(access, refresh);
      }
      return {
        accessToken: token.accessToken,
        accessTokenExpiresAt: token.accessTokenExpiresAt,
        refreshToken: token.refreshToken,
        refreshTokenExpiresAt: token.refreshTokenExpiresAt,
        scope,
        client,
        user: {
          accountId: owner.accountId,
          grantId,
          consentId: owner.consentId ?? null,
          apiKeyId: owner.apiKeyId ?? null,
        } satisfies OAuthUser,
      };
    },

    async getAccessToken(accessToken: string): Promise<Token | false> {
      if (!isOAuthSecret('accessToken', accessToken)) return false;
      const found = await store.findAccessToken(hashOAuthSecret(accessToken));
      if (!found || found.revokedAt !== null || found.accountPlan !== 'enterprise') return false;
      const client = await clientById(found.clientId);
      if (!client) return false;
      return {
        accessToken,
        accessTokenExpiresAt: found.expiresAt,
        scope: found.scope,
        client,
        user: {
          accountId: found.accountId,
          grantId: found.grantId,
          consentId: found.consentId,
          apiKeyId: found.apiKeyId,
        } satisfies OAuthUser,
      };
    },

    verifyScope(token: Token, scope: string[]): Promise<boolean> {
      const granted = token.scope ?? [];
      return Promise.resolve(scope.every((s) => granted.includes(s)));
    },

    async getRefreshToken(refreshToken: string): Promise<RefreshToken | false> {
      if (!isOAuthSecret('refreshToken', refreshToken)) return false;
      const found = await store.findRefreshToken(hashOAuthSecret(refreshToken));
      if (!found) return false;
      if (found.revokedAt !== null) {
        // A rotated-out refresh token presented again: one of the two holders is not the client.
        await store.revokeGrant(found.grantId);
        return false;
      }
      if (found.accountPlan !== 'enterprise') return false;
      const client = await clientById(found.clientId);
      if (!client) return false;
      return {
        refreshToken,
        refreshTokenExpiresAt: found.expiresAt,
        scope: found.scope,
        client,
        user: {
          accountId: found.accountId,
          grantId: found.grantId,
          consentId: found.consentId,
          apiKeyId: found.apiKeyId,
          rotatesRefreshTokenHash: hashOAuthSecret(refreshToken),
        } satisfies OAuthUser,
      };
    },

    /**
     * Called by the library after `getRefreshToken` and before it checks the scope: it revokes
     * nothing (see the header); `saveToken` rotates. The token was found unrevoked just now.
     */
    revokeToken(token: RefreshToken): Promise<boolean> {
      return Promise.resolve((token.user as OAuthUser).rotatesRefreshTokenHash !== undefined);
    },
  };
}

function toLibraryClient(client: OAuthClientRecord): Client {
  return {
    id: client.id,
    redirectUris: client.redirectUris,
    grants: [...OAUTH_GRANTS],
    accountId: client.accountId,
    isPublic: client.isPublic,
  };
}

function grantIdOf(user: User): string {
  const grantId = (user as OAuthUser).grantId;
  if (typeof grantId !== 'string') throw new ServerError('Server error: token has no grant');
  return grantId;
}
