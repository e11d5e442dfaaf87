import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';

const REALM = 'sha224d operators';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The token a request presents: `Authorization: Bearer <token>` (scripts, curl), or Basic with
 * the token as password and any user name, which is what a browser sends after its own login
 * prompt; the queue UI's page and its own API calls need no other client support
 * (docs/decisions.md "Operating").
 */
export function presentedToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const bearer = /^Bearer +(\S+) *$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/**
 * Lets through requests that present `token`; others get 401 UNAUTHORIZED with challenges for
 * both schemes. Compared as SHA-256 digests in constant time, so neither the token's characters
 * nor its length leak through timing.
 */
export function operatorAuth(token: string): RequestHandler {
  const expected = digest(token);
  return function requireOperatorToken(req, res, next) {
    const presented = presentedToken(req.headers.authorization);
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', `Bearer realm="${REALM}", Basic realm="${REALM}", charset="UTF-8"`);
    res.setHeader('Cache-Control', 'no-store');
    next(new ServiceError('UNAUTHORIZED', { message: 'Invalid or missing operator token' }));
  };
}
