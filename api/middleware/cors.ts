import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { isHostAllowed } from '../../shared/keys/domains.js';

/** Client keys work only from their allowed domains (SPEC rule 3), checked on `Origin`. */
export function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

const ALLOWED_HEADERS = 'X-API-Key, Authorization, Content-Type, X-Request-Id, Idempotency-Key';
const EXPOSED_HEADERS = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Retry-After, Retry-After';

export interface CorsOptions {
  /**
   * Is this origin host allowed by any active client key? Preflight requests carry no
   * credentials (Fetch standard, CORS-preflight), so this is the best a preflight can know.
   */
  anyClientKeyAllows: (host: string) => Promise<boolean>;
}

/** Answers preflights; must run before authentication. */
export function corsPreflight(options: CorsOptions): RequestHandler {
  return async function preflight(req, res, next) {
    if (req.method !== 'OPTIONS') return next();
    const origin = req.headers.origin;
    const host = typeof origin === 'string' ? originHost(origin) : undefined;
    res.setHeader('Vary', 'Origin');
    if (origin !== undefined && host !== undefined && (await options.anyClientKeyAllows(host))) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
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
    const origin = req.headers.origin;
    const host = typeof origin === 'string' ? originHost(origin) : undefined;
    if (origin === undefined || host === undefined || !isHostAllowed(principal.allowedDomains, host)) {
      throw new ServiceError('FORBIDDEN', { details: 'client key used from a domain it does not allow' });
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}
