import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { endWithError } from '../http/raw-response.js';

/** One year, subdomains included (RFC 6797 §6.1). */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

function queryOf(url: string): URLSearchParams {
  const q = url.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
}

/** Where a request carries a credential, if it does: the words for the refusal and its details. */
function presentedCredential(req: IncomingMessage): { where: string; details: string } | undefined {
  if (req.headers['x-api-key'] !== undefined) return { where: 'the X-API-Key header', details: 'header: x-api-key' };
  if (req.headers.authorization !== undefined) return { where: 'the Authorization header', details: 'header: authorization' };
  if (queryOf(req.url ?? '').has('api_key')) return { where: 'the api_key query parameter', details: 'query: api_key' };
  return undefined;
}

/**
 * What a plain-HTTP request gets when HTTPS is required (docs/api.md "Overview": plain HTTP is redirected to HTTPS):
 * - it carries a credential → 403 CREDENTIAL_EXPOSED: the key has crossed the network in clear, so
 *   it is named as exposed, and it is not echoed into a Location a client would follow;
 * - otherwise a 308 to the same path and query under `publicUrl` (PUBLIC_URL), which keeps a POST's
 *   method and body (RFC 9110 §15.4.9); never built from Host or X-Forwarded-Host;
 * - no public URL known (behind a proxy without PUBLIC_URL) → 403 naming HTTPS, no Location.
 */
export function plainHttpOutcome(req: IncomingMessage, publicUrl: string | undefined): { location: string } | { refusal: ServiceError } {
  const credential = presentedCredential(req);
  if (credential !== undefined) {
    return {
      refusal: new ServiceError('CREDENTIAL_EXPOSED', {
        message: `The API key in ${credential.where} was sent over plain HTTP and must be treated as exposed: revoke it, create a new one, and call this service over HTTPS`,
        details: credential.details,
      }),
    };
  }
  if (publicUrl === undefined) {
    return { refusal: new ServiceError('FORBIDDEN', { message: 'This service is served over HTTPS only', details: 'use https' }) };
  }
  const target = req.url ?? '/';
  // Origin-form only: an absolute-form target (`GET http://elsewhere/ HTTP/1.1`) must not steer the Location.
  return { location: `${publicUrl}${target.startsWith('/') ? target : '/'}` };
}

/** The plain-HTTP listener of a TLS deployment (api/server.ts). */
export function answerPlainHttp(req: IncomingMessage, res: ServerResponse, publicUrl: string): void {
  const outcome = plainHttpOutcome(req, publicUrl);
  if ('refusal' in outcome) {
    endWithError(res, outcome.refusal, req.url);
    return;
  }
  try {
    res.writeHead(308, { Location: outcome.location, 'Content-Length': '0', 'Cache-Control': 'no-store' });
    res.end();
  } catch {
    // A target Node will not put in a header: answer without following it.
    endWithError(res, new ServiceError('INVALID_INPUT', { message: 'Malformed request target', details: 'field: path' }), undefined);
  }
}

/**
 * HTTPS only behind a trusted proxy (Express's req.protocol honours "trust proxy", so
 * X-Forwarded-Proto decides); HTTPS responses carry HSTS.
 */
export function httpsOnly(options: { enforce: boolean; publicUrl: string | undefined }): RequestHandler {
  return function requireHttps(req, res, next) {
    if (!options.enforce) return next();
    if (req.protocol === 'https') {
      res.setHeader('Strict-Transport-Security', HSTS_VALUE);
      return next();
    }
    const outcome = plainHttpOutcome(req, options.publicUrl);
    if ('refusal' in outcome) throw outcome.refusal;
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(308, outcome.location);
  };
}
