/**
 * The one shape of every random secret this service issues besides API keys (dashboard sessions
 * and one-time links, OAuth clients, codes and tokens): a prefix that says what leaked, then 32
 * random bytes in base64url (256 bits, 43 characters). Stored only as its SHA-256 hex: the secret
 * is high-entropy random, so the hash cannot be inverted, needs no slow KDF and doubles as the
 * lookup index (shared/keys/format.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const RANDOM_BYTES = 32;
/** base64url of 32 bytes, unpadded. */
const BODY_RE = /^[A-Za-z0-9_-]{43}$/;

export function generatePrefixedSecret(prefix: string): string {
  return prefix + randomBytes(RANDOM_BYTES).toString('base64url');
}

/** Prefix and shape only: a cheap refusal before any store call. */
export function isPrefixedSecret(prefix: string, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(prefix) && BODY_RE.test(value.slice(prefix.length));
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two SHA-256 hex strings (a stored hash and a computed one). */
export function hashesEqual(storedHex: string, computedHex: string): boolean {
  const a = Buffer.from(storedHex, 'hex');
  const b = Buffer.from(computedHex, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
