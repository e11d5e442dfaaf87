/**
 * The tus 1.0 rules every answer under /v2/uploads follows, whatever route or refusal produces it
 * (docs/decisions.md "Resumable uploads"): `Tus-Resumable: 1.0.0` on every answer; OPTIONS
 * announces the version, the extensions, the checksum algorithms and the largest upload
 * (Tus-Max-Size: the server's ceiling, since OPTIONS carries no credential; POST and HEAD answers
 * carry the caller's own limit); any other request without `Tus-Resumable: 1.0.0` is 412.
 * Runs before the /v2 routes and the CORS preflight, which answers the OPTIONS itself.
 */
import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { renderV2Error } from '../http/envelopes.js';
import { sendError } from '../http/error-handler.js';
import { TUS_CHECKSUM_ALGORITHMS, TUS_EXTENSIONS, TUS_VERSION } from '../schemas/uploads.js';

export const UPLOADS_PATH = '/v2/uploads';

export function isUploadsPath(url: string): boolean {
  const path = url.split('?', 1)[0]!.toLowerCase();
  return path === UPLOADS_PATH || path.startsWith(`${UPLOADS_PATH}/`);
}

export function tusProtocol(options: { maxBytes: number }): RequestHandler {
  return function tusRules(req, res, next) {
    if (!isUploadsPath(req.url)) return next();
    res.setHeader('Tus-Resumable', TUS_VERSION);
    if (req.method === 'OPTIONS') {
      res.setHeader('Tus-Version', TUS_VERSION);
      res.setHeader('Tus-Extension', TUS_EXTENSIONS);
      res.setHeader('Tus-Max-Size', String(options.maxBytes));
      res.setHeader('Tus-Checksum-Algorithm', TUS_CHECKSUM_ALGORITHMS.join(','));
      return next();
    }
    if (req.headers['tus-resumable'] === TUS_VERSION) return next();
    res.setHeader('Tus-Version', TUS_VERSION);
    // Nothing of the body is read: answer, then close.
    if (req.headers['content-length'] !== '0' && req.headers['content-length'] !== undefined) res.setHeader('Connection', 'close');
    sendError(
      res,
      new ServiceError('TUS_VERSION_UNSUPPORTED', { details: `header: tus-resumable; this server speaks ${TUS_VERSION}` }),
      renderV2Error,
    );
  };
}
