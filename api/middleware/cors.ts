import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { isHostAllowed } from '../../shared/keys/domains.js';
import { serialisedOrigin } from '../http/origin.js';

/** Client keys work only from their allowed domains (docs/api.md "Authentication" rule 3), checked on `Origin`. */
export function originHost(origin: string): string | undefined {
  return serialisedOrigin(origin)?.host;
}

/** The tus protocol's request headers (/v2/uploads) and X-Expected-SHA224 (verify on ingest) are among them. */
const ALLOWED_HEADERS =
  'X-API-Key, Authorization, Content-Type, X-Request-Id, Idempotency-Key, X-Expected-SHA224, ' +
  'Tus-Resumable, Upload-Length, Upload-Defer-Length, Upload-Metadata, Upload-Offset, Upload-Checksum';
/** A browser tus client must read Location and the Tus-* and Upload-* answers. */
const EXPOSED_HEADERS =
  'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Retry-After, Retry-After, ' +
  'Location, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, ' +
  'Upload-Offset, Upload-Length, Upload-Defer-Length, Upload-Metadata, Upload-Expires, Upload-Job-Id, Upload-Job-Url';

export interface CorsOptions {
  /**
   * Is this origin host allowed by any active client key? Preflight requests carry no
   * credentials (Fetch standard, CORS-preflight), so this is the best a preflight can know.
   */
  anyClientKeyAllows: (host: string) => Promise<boolean>;
}

/** Answers preflights; must run before authentication. */
export function corsPreflight(options: CorsOptions): RequestHandler {
  const answer = async (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): Promise<void> => {
    const origin = serialisedOrigin(req.headers.origin);
    res.setHeader('Vary', 'Origin');
    if (origin !== undefined && (await options.anyClientKeyAllows(origin.host))) {
      res.setHeader('Access-Control-Allow-Origin', origin.origin);
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, HEAD, PATCH, DELETE, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
  };
  // Synchronous for every other method: no promise per request on the way to a route.
  return function preflight(req, res, next) {
    return req.method === 'OPTIONS' ? answer(req, res) : next();
  };
}

/**
 * After authentication: a client key must present an allowed Origin (else 403), and only then
 * does the response carry Access-Control-Allow-Origin. Other key types get no CORS headers, so
 * a browser page can never read a response obtained with a secret key.
 */
export function clientOrigin(): RequestHandler {
  return function checkClientOrigin(req, res, next) {
    const principal = res.locals.principal;
    res.append('Vary', 'Origin');
    if (principal?.keyType !== 'client') return next();
    const origin = serialisedOrigin(req.headers.origin);
    if (origin === undefined || !isHostAllowed(principal.allowedDomains, origin.host)) {
      throw new ServiceError('FORBIDDEN', { details: 'client key used from a domain it does not allow' });
    }
    res.setHeader('Access-Control-Allow-Origin', origin.origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}

/**
 * A refused credential (401 UNAUTHORIZED or EXPIRED_KEY, 403 IP_NOT_ALLOWED) is readable by the page
 * that sent it: a browser app whose client key was revoked or expired can then tell its user so,
 * instead of seeing an opaque network error. The body is the catalog's generic refusal, no cookie is
 * involved (no Allow-Credentials), and nothing obtained with a credential is exposed.
 */
export function allowReadingRefusal(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): void {
  const origin = serialisedOrigin(req.headers.origin);
  res.append('Vary', 'Origin');
  if (origin === undefined) return;
  res.setHeader('Access-Control-Allow-Origin', origin.origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}
