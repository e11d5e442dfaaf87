import { createHash } from 'node:crypto';
import { ServiceError } from '../errors.js';

/**
 * What makes a retried request "the same" for its Idempotency-Key: the method, the path, the query
 * without the credential (`api_key`), parameters in name order, and the SHA-224 of the body. The
 * key with a different fingerprint is 422 IDEMPOTENCY_KEY_REUSED (Stripe's rule), never a silent
 * replay of another request's job.
 */
export function requestFingerprint(request: { method: string; path: string; query: string; bodyDigest: string }): string {
  const params = new URLSearchParams(request.query);
  params.delete('api_key');
  params.sort();
  return createHash('sha224')
    .update(`${request.method.toUpperCase()} ${request.path}?${params.toString()}\n${request.bodyDigest}`)
    .digest('hex');
}

/** An Idempotency-Key's stored value: the job id and, since fingerprints exist, the request's fingerprint. */
export function encodeIdempotencyRecord(jobId: string, fingerprint: string | undefined): string {
  return fingerprint === undefined ? jobId : `${jobId} ${fingerprint}`;
}

export function decodeIdempotencyRecord(value: string): { jobId: string; fingerprint: string | undefined } {
  const space = value.indexOf(' ');
  return space === -1 ? { jobId: value, fingerprint: undefined } : { jobId: value.slice(0, space), fingerprint: value.slice(space + 1) };
}

/** Throws IDEMPOTENCY_KEY_REUSED when both fingerprints are known and differ. */
export function assertSameRequest(stored: string | undefined, presented: string | undefined): void {
  if (stored === undefined || presented === undefined || stored === presented) return;
  throw new ServiceError('IDEMPOTENCY_KEY_REUSED', {
    details: 'header: idempotency-key; it was first used with another method, path, query or body — use a new key for a new request',
  });
}
