/**
 * The random tokens of the dashboard: session tokens (the cookie) and one-time links. Each is a
 * prefix and 32 random bytes in base64url (256 bits, 43 characters), stored only as its SHA-256
 * hex. A fast hash is right here for the reason given in shared/keys/format.ts: the token is
 * high-entropy random, so the hash cannot be inverted and it doubles as the lookup index.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIXES = {
  session: 's224s_',
  link: 's224l_',
} as const;

export type TokenKind = keyof typeof TOKEN_PREFIXES;

const BODY_RE = /^[A-Za-z0-9_-]{43}$/;

export function generateToken(kind: TokenKind): string {
  return TOKEN_PREFIXES[kind] + randomBytes(32).toString('base64url');
}

/** Prefix and shape only: a cheap refusal before any store call. */
export function isToken(kind: TokenKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const prefix = TOKEN_PREFIXES[kind];
  return value.startsWith(prefix) && BODY_RE.test(value.slice(prefix.length));
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two SHA-256 hex strings (a stored hash and a computed one). */
export function hashesEqual(storedHex: string, computedHex: string): boolean {
  const a = Buffer.from(storedHex, 'hex');
  const b = Buffer.from(computedHex, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
