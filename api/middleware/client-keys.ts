import type { RequestHandler } from 'express';
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';

/**
 * Client keys are public by design (docs/api.md "Authentication" rule 3: they live in browser code), so
 * they get only what a browser page needs: hashing and verifying data it sends, with uploads capped
 * at CLIENT_KEY_MAX_UPLOAD_BYTES (api/compose.ts). They may not make the service fetch a URL (a
 * scraped key would be a free fetcher and a port-state oracle against third-party hosts) nor start
 * or read async jobs. The whole table: docs/limits.md "What each key type may do".
 */
export function assertNotClientKey(principal: Principal, operation: string): void {
  if (principal.keyType === 'client') {
    throw new ServiceError('FORBIDDEN', { details: `client keys may not ${operation}; use a secret key from a server` });
  }
}

export function refuseClientKeys(operation: string): RequestHandler {
  return function notForClientKeys(_req, res, next) {
    const principal = res.locals.principal;
    if (principal) assertNotClientKey(principal, operation);
    next();
  };
}
