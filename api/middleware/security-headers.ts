import type { RequestHandler } from 'express';

/**
 * Headers every response carries, set by each listener before any handler runs (api/server.ts),
 * so responses written by Express, socket.io's engine and raw-socket refusals
 * (api/http/raw-response.ts) all have them. `nosniff`: a browser must never run a response as
 * something other than its declared type (Fetch standard, X-Content-Type-Options).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };

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
