/**
 * The refusals the OAuth endpoints share before their client is authenticated (./routes.ts
 * `before`), answered in the OAuth envelope.
 */
import type { RequestHandler } from 'express';
import { OAuthEndpointError } from './endpoint-error.js';

/** RFC 6749 §3.2 (token), RFC 7009 §2.1, RFC 7662 §2.1: form-encoded bodies only. */
export const formOnly: RequestHandler = function formEncodedOnly(req, _res, next) {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new OAuthEndpointError(400, 'invalid_request', 'Invalid request: content must be application/x-www-form-urlencoded');
  }
  next();
};

/** RFC 6749 §3.1, §3.2: parameters must not be repeated; anything but one string is refused. */
export const singleValued: RequestHandler = function singleValuedParameters(req, _res, next) {
  for (const source of [req.query as Record<string, unknown>, (req.body ?? {}) as Record<string, unknown>]) {
    for (const [name, value] of Object.entries(source)) {
      if (typeof value !== 'string') throw new OAuthEndpointError(400, 'invalid_request', `Parameter ${name} must be given once`);
    }
  }
  next();
};
