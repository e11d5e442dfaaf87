/**
 * The OAuth 2.0 secrets this service issues, and the one way each is stored.
 *
 * Every secret is a prefix and 32 random bytes in base64url (256 bits, 43 characters). The prefix
 * tells people and secret scanners what leaked, and lets the bearer authenticator route a token
 * without a lookup: none starts with `s224_` (the API key prefix) and none contains a dot (so none
 * looks like a JWT). Stored form: SHA-256 hex, for the reason given in shared/keys/format.ts (a
 * high-entropy random secret needs no slow KDF, and the hash doubles as the lookup index).
 */
import { generatePrefixedSecret, hashesEqual, hashSecret, isPrefixedSecret } from '../keys/prefixed-secret.js';

export const OAUTH_PREFIXES = {
  clientId: 's224c_',
  clientSecret: 's224cs_',
  code: 's224ac_',
  accessToken: 's224at_',
  refreshToken: 's224rt_',
  grantId: 'grt_',
} as const;

export type OAuthSecretKind = keyof typeof OAUTH_PREFIXES;

export function generateOAuthSecret(kind: OAuthSecretKind): string {
  return generatePrefixedSecret(OAUTH_PREFIXES[kind]);
}

/** Prefix and shape only: a cheap refusal before any store call. */
export function isOAuthSecret(kind: OAuthSecretKind, value: unknown): value is string {
  return isPrefixedSecret(OAUTH_PREFIXES[kind], value);
}

export function hashOAuthSecret(value: string): string {
  return hashSecret(value);
}

/** Constant-time comparison of a presented secret with a stored SHA-256 hex. */
export function oauthSecretMatches(presented: string, storedHex: string): boolean {
  return hashesEqual(storedHex, hashSecret(presented));
}
