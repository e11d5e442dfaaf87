import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';

/** The path as sent, without its query. */
function rawPath(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * A path whose percent-encoding does not decode (`%ZZ`, a lone `%`, bytes that are not UTF-8) is
 * 400 wherever it occurs (RFC 3986 §2.1), instead of reaching the router, which would fail to
 * decode a parameter.
 */
export function rejectMalformedPath(): RequestHandler {
  return function checkPathEncoding(req, _res, next) {
    try {
      decodeURIComponent(rawPath(req.originalUrl));
    } catch {
      throw new ServiceError('INVALID_INPUT', { message: 'The request path has malformed percent-encoding', details: 'field: path' });
    }
    next();
  };
}
