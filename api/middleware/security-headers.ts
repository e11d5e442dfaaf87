import type { RequestHandler } from 'express';

/**
 * API responses are per caller (results, account figures, authentication failures): no cache,
 * shared or private, may keep them (RFC 9111 §5.2.2.5).
 */
export function noStore(): RequestHandler {
  return function setNoStore(_req, res, next) {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
