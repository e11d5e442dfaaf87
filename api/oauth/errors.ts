/**
 * The OAuth error envelope {error, error_description} (RFC 6749 §5.2), answered by every /oauth
 * endpoint in place of the v2 one: OAuth client libraries parse this shape, not ours.
 */
import type { ErrorRequestHandler } from 'express';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Logger } from '../../shared/log.js';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../shared/errors.js';
import { OAuthEndpointError } from './endpoint-error.js';

export { BASIC_CHALLENGE, OAuthEndpointError } from './endpoint-error.js';

const { OAuthError } = OAuth2Server;

export function oauthErrorHandler(logger: Logger): ErrorRequestHandler {
  return function oauthErrors(err: unknown, _req, res, _next) {
    if (err instanceof OAuthEndpointError) {
      if (err.challenge !== undefined) res.setHeader('WWW-Authenticate', err.challenge);
      res.status(err.status).json({ error: err.error, error_description: err.description });
      return;
    }
    if (err instanceof OAuthError) {
      logIfServerError(logger, err);
      // The library's server_error is a 503: like every 503, it says when to come back.
      if (err.code === 503 || err.code === 429) res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
      res.status(err.code).json({ error: err.name, error_description: err.message });
      return;
    }
    const status = clientErrorStatus(err);
    if (status !== undefined) {
      res.status(status).json({ error: 'invalid_request', error_description: 'Malformed request body' });
      return;
    }
    logger.error({ err, requestId: res.locals.requestId }, 'oauth request failed');
    res.status(500).json({ error: 'server_error', error_description: 'Internal error' });
  };
}

export function logIfServerError(logger: Logger, err: InstanceType<typeof OAuthError>): void {
  if (err.code >= 500) logger.error({ err: (err as { inner?: unknown }).inner ?? err }, 'oauth request failed');
}

/**
 * The 4xx status a refused request is answered with (ours, the library's, or the body parser's,
 * whose refusals become 400 except 413), or undefined for a failure of the server.
 */
export function clientErrorStatus(err: unknown): number | undefined {
  if (err instanceof OAuthEndpointError) return err.status;
  if (err instanceof OAuthError) return err.code < 500 ? err.code : undefined;
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500) return status === 413 ? 413 : 400;
  return undefined;
}
