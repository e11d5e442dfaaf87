import { timingSafeEqual } from 'node:crypto';
import { SHA224_BYTES } from './sha224.js';

const HEX_DIGEST = /^[0-9a-fA-F]{56}$/;

export function isHexDigest(value: string): boolean {
  return HEX_DIGEST.test(value);
}

/**
 * Compare a computed digest with a caller's hex string in constant time. Upper- and lower-case
 * hex are both accepted. A string that is not a 56-character hex digest never matches; the
 * length check leaks only the (public) expected length.
 */
export function digestMatchesHex(computed: Uint8Array, providedHex: string): boolean {
  if (computed.byteLength !== SHA224_BYTES || !HEX_DIGEST.test(providedHex)) return false;
  return timingSafeEqual(computed, Buffer.from(providedHex, 'hex'));
}

/** Constant-time equality of two hex digests of any equal length (v1 Set B "compare"). */
export function hexDigestsEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a.toLowerCase(), 'utf8');
  const bb = Buffer.from(b.toLowerCase(), 'utf8');
  // Compare against itself on length mismatch so the time does not depend on where they differ.
  return ab.length === bb.length ? timingSafeEqual(ab, bb) : (timingSafeEqual(ab, ab), false);
}
