/**
 * The random tokens of the dashboard: session tokens (the cookie) and one-time links. Each is a
 * prefix and 32 random bytes in base64url (256 bits, 43 characters), stored only as its SHA-256
 * hex. A fast hash is right here for the reason given in shared/keys/format.ts: the token is
 * high-entropy random, so the hash cannot be inverted and it doubles as the lookup index.
 */
import { generatePrefixedSecret, hashSecret, isPrefixedSecret } from '../keys/prefixed-secret.js';

export { hashesEqual } from '../keys/prefixed-secret.js';

export const TOKEN_PREFIXES = {
  session: 's224s_',
  link: 's224l_',
} as const;

export type TokenKind = keyof typeof TOKEN_PREFIXES;

export function generateToken(kind: TokenKind): string {
  return generatePrefixedSecret(TOKEN_PREFIXES[kind]);
}

/** Prefix and shape only: a cheap refusal before any store call. */
export function isToken(kind: TokenKind, value: unknown): value is string {
  return isPrefixedSecret(TOKEN_PREFIXES[kind], value);
}

export function hashToken(token: string): string {
  return hashSecret(token);
}
