/**
 * OAuth 2.0 access tokens as API credentials (docs/api.md "Authentication" rule 8), and the one bearer
 * verifier the authenticator is given.
 *
 * Why one routing verifier rather than a list: createAuthenticator tries its verifiers in order and
 * reports the *last* error, so with [jwt, oauth] an expired JWT would be answered with the OAuth
 * verifier's "unknown token". Tokens are told apart by shape instead (a JWT has two dots; an access
 * token starts with s224at_), and each is answered by the verifier it was meant for.
 */
import { ServiceError } from '../../../shared/errors.js';
import { looksLikeJwt, type TokenVerifier } from '../../../shared/auth/credentials.js';
import { BEARER_MESSAGES } from '../../../shared/auth/jwt.js';
import type { Principal } from '../../../shared/auth/principal.js';
import type { OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import { hashOAuthSecret, isOAuthSecret } from '../../../shared/oauth/tokens.js';

export function createOAuthVerifier(options: { store: OAuthServerStore; now?: () => Date }): TokenVerifier {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  return {
    async verify(token: string): Promise<Principal> {
      if (!isOAuthSecret('accessToken', token)) throw invalid('not an OAuth access token');
      const found = await store.findAccessToken(hashOAuthSecret(token));
      if (!found) throw invalid('unknown access token');
      if (found.revokedAt !== null) throw invalid('revoked access token');
      if (found.expiresAt.getTime() <= now().getTime()) {
        throw new ServiceError('EXPIRED_KEY', { message: BEARER_MESSAGES.expired, cause: new Error('access token expired') });
      }
      if (found.accountPlan !== 'enterprise') {
        throw new ServiceError('FORBIDDEN', {
          message: BEARER_MESSAGES.notEnterprise,
          cause: new Error(`account plan is ${String(found.accountPlan)}`),
        });
      }
      return {
        accountId: found.accountId,
        plan: 'enterprise',
        credentialId: `oauth:${found.clientId}`,
        via: 'oauth',
        keyType: 'production',
        allowedDomains: [],
        permissions: [...found.scope],
      };
    },
  };
}

/**
 * Routes a bearer token that is not an API key: JWT-shaped → `jwt` (when configured), OAuth
 * access token → `oauth`; anything else is refused with the catalog's UNAUTHORIZED, as before
 * bearer verifiers existed.
 */
export function routeBearerTokens(verifiers: { jwt?: TokenVerifier; oauth?: TokenVerifier }): TokenVerifier {
  return {
    verify(token: string): Promise<Principal> {
      if (verifiers.jwt && looksLikeJwt(token)) return verifiers.jwt.verify(token);
      if (verifiers.oauth && isOAuthSecret('accessToken', token)) return verifiers.oauth.verify(token);
      return Promise.reject(
        new ServiceError('UNAUTHORIZED', { cause: new Error('bearer token is neither an API key, a JWT nor an OAuth access token') }),
      );
    },
  };
}

function invalid(reason: string): ServiceError {
  return new ServiceError('UNAUTHORIZED', { message: BEARER_MESSAGES.invalid, cause: new Error(reason) });
}
