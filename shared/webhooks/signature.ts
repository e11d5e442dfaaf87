/**
 * Standard Webhooks 1.0 signatures (the `v1` scheme: HMAC-SHA256). The signed content is
 * `{webhook-id}.{webhook-timestamp}.{body}`; the header lists one `v1,<base64>` entry per active
 * secret, space-separated, so a receiver that knows either secret verifies during a rotation.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignedHeaders } from './event-schema.js';
import { secretKeyBytes } from './secrets.js';

export type { SignedHeaders } from './event-schema.js';

/** One `v1,<base64>` entry. */
export function signatureEntry(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKeyBytes(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three headers for `body`, signed with every secret given (newest first). */
export function signedHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): SignedHeaders {
  if (secrets.length === 0) throw new Error('no signing secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signatureEntry(s, id, timestampSeconds, body)).join(' '),
  };
}

/** True if any `v1` entry of the header matches `secret` (constant-time per entry). */
export function signatureMatches(secret: string, header: string, id: string, timestampSeconds: number, body: string): boolean {
  const expected = Buffer.from(signatureEntry(secret, id, timestampSeconds, body).slice(3), 'base64');
  for (const entry of header.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}
