import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';

/** 405 with Allow for a known path requested with another method. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  return function wrongMethod(req, res) {
    res.setHeader('Allow', allowed.join(', '));
    throw new ServiceError('METHOD_NOT_ALLOWED', { details: `${req.method} is not allowed; use ${allowed.join(' or ')}` });
  };
}
