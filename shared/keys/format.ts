/**
 * The API key format: `s224_` + 32 random base62 characters + 6 base62 characters of the CRC32 of
 * everything before them (the GitHub token layout). 43 characters in all.
 *
 * - The prefix makes a leaked key recognisable to secret scanners and to people.
 * - 32 base62 characters carry 32·log2(62) ≈ 190.5 bits, drawn without modulo bias.
 * - The checksum lets a typo or a truncated paste be refused without touching the database, so a
 *   flood of garbage keys costs no queries. It is not a MAC: anyone can compute it.
 */
import { hash as oneShotHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const API_KEY_PREFIX = 's224_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32;
/** 62^6 ≈ 5.7·10^10 > 2^32, so six characters hold any CRC32. */
const CHECKSUM_CHARS = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS;
const BODY_RE = new RegExp(`^[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);
/** Characters shown in listings: the prefix and 7 random characters (≈42 of the 190 bits). */
const DISPLAY_PREFIX_LENGTH = 12;
/** Largest multiple of 62 that fits in a byte: bytes ≥ 248 are redrawn, so `byte % 62` is uniform. */
const UNBIASED_BYTE_LIMIT = 248;

export function generateApiKey(): string {
  let random = '';
  while (random.length < RANDOM_CHARS) {
    // ~3% of bytes are rejected; one extra draw is almost never needed.
    for (const byte of randomBytes(RANDOM_CHARS + 8)) {
      if (byte < UNBIASED_BYTE_LIMIT && random.length < RANDOM_CHARS) random += BASE62.charAt(byte % 62);
    }
  }
  const head = API_KEY_PREFIX + random;
  return head + checksum(head);
}

/** Length, prefix, charset and checksum: everything that can be checked without a lookup. */
export function isWellFormedApiKey(s: unknown): s is string {
  if (typeof s !== 'string' || s.length !== API_KEY_LENGTH || !s.startsWith(API_KEY_PREFIX)) return false;
  if (!BODY_RE.test(s.slice(API_KEY_PREFIX.length))) return false;
  const split = API_KEY_LENGTH - CHECKSUM_CHARS;
  return checksum(s.slice(0, split)) === s.slice(split);
}

/**
 * SHA-256 hex of the whole key, the only form the store keeps. A fast unsalted hash is right here,
 * unlike for passwords: the key holds ~190 random bits, so neither brute force nor a precomputed
 * table can invert the hash, and a slow KDF would only add latency to every request. Being
 * deterministic, it doubles as the lookup index.
 */
export function hashApiKey(key: string): string {
  return oneShotHash('sha256', key, 'hex');
}

/** The non-secret leading characters shown in listings, e.g. "s224_AbC12xY". */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

function checksum(head: string): string {
  let n = crc32(head);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = BASE62.charAt(n % 62) + out;
    n = Math.floor(n / 62);
  }
  return out;
}
