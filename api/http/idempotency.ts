import type { Request } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { requestFingerprint } from '../../shared/queue/idempotency.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export interface Idempotency {
  key: string;
  fingerprint: string;
}

/** `Idempotency-Key`: printable ASCII, at most 255 characters (docs/decisions.md "Jobs and modes"). */
export function idempotencyKeyOf(req: Request): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ServiceError('INVALID_INPUT', {
      message: 'Idempotency-Key must be 1-255 printable ASCII characters',
      details: 'header: idempotency-key',
    });
  }
  return value;
}

/**
 * The key and this request's fingerprint (method, path, query, SHA-224 of the body), or undefined
 * without a key. `bodyDigest` is the body's SHA-224 as the route read it.
 */
export function idempotencyOf(req: Request, bodyDigest: string | undefined): Idempotency | undefined {
  const key = idempotencyKeyOf(req);
  if (key === undefined) return undefined;
  const url = req.originalUrl;
  const q = url.indexOf('?');
  const fingerprint = requestFingerprint({
    method: req.method,
    path: q === -1 ? url : url.slice(0, q),
    query: q === -1 ? '' : url.slice(q + 1),
    bodyDigest: bodyDigest ?? '',
  });
  return { key, fingerprint };
}
