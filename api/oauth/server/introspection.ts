/**
 * Token introspection (RFC 7662 §2.2) for a client that authenticated at /oauth/introspect.
 *
 * A client learns about its own tokens only: any other client's token — like an unknown, expired,
 * revoked or rotated-out one, or one whose account left the Enterprise plan — is `{active: false}`
 * and nothing else (RFC 7662 §2.2: "the protected resource is not allowed to introspect this particular
 * token"), so the endpoint cannot be used to probe tokens. Introspecting is a read: unlike
 * presenting a rotated-out refresh token to /oauth/token, it never revokes anything.
 */
import type { OAuthServerStore, OAuthTokenRecord } from '../../../shared/store/oauth-server-types.js';
import { hashOAuthSecret, isOAuthSecret } from '../../../shared/oauth/tokens.js';

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      /** Present for access tokens (RFC 6749 §5.1 types them); a refresh token has no token type. */
      token_type?: 'Bearer';
      /** Seconds since the epoch (RFC 7662 §2.2, as JWT NumericDate). */
      exp: number;
      iat: number;
      /** The resource owner: the Enterprise account that authorized the client. */
      sub: string;
      iss: string;
    };

export async function introspectToken(
  store: OAuthServerStore,
  input: { token: string; clientId: string; issuer: string; now?: Date },
): Promise<IntrospectionResponse> {
  const { token, clientId, issuer } = input;
  const now = input.now ?? new Date();
  // The prefix says what a token is, so token_type_hint is not needed (RFC 7662 §2.1 lets the server ignore it).
  const kind = isOAuthSecret('accessToken', token) ? 'access' : isOAuthSecret('refreshToken', token) ? 'refresh' : undefined;
  if (kind === undefined) return { active: false };
  const hash = hashOAuthSecret(token);
  const found = kind === 'access' ? await store.findAccessToken(hash) : await store.findRefreshToken(hash);
  if (!found || !isActive(found, clientId, now)) return { active: false };
  return {
    active: true,
    scope: found.scope.join(' '),
    client_id: found.clientId,
    ...(kind === 'access' ? { token_type: 'Bearer' as const } : {}),
    exp: Math.floor(found.expiresAt.getTime() / 1000),
    iat: Math.floor(found.issuedAt.getTime() / 1000),
    sub: found.accountId,
    iss: issuer,
  };
}

function isActive(token: OAuthTokenRecord, clientId: string, now: Date): boolean {
  return (
    token.clientId === clientId &&
    token.revokedAt === null &&
    token.expiresAt.getTime() > now.getTime() &&
    // The API refuses such a token at once (api/oauth/server/verifier.ts); introspection agrees.
    token.accountPlan === 'enterprise'
  );
}
