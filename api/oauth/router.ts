/**
 * OAuth 2.0 endpoints (SPEC "Authentication" rule 8; the spec shows none, these are ours,
 * docs/auth.md). @node-oauth/oauth2-server runs the protocol; this router adapts Express to it and
 * speaks the OAuth error envelope {error, error_description} (RFC 6749 §5.2), not the v2 one.
 *
 *   GET|POST /oauth/authorize  authorization code grant, PKCE S256 required. There is no dashboard
 *                              consent page: the resource owner authenticates with a production API
 *                              key of the Enterprise account that registered the client (X-API-Key),
 *                              which is the consent; `allowed=false` denies.
 *   POST /oauth/token          grant_type=authorization_code | refresh_token, form-encoded, with
 *                              client authentication (HTTP Basic or client_id/client_secret).
 *   POST /oauth/revoke         RFC 7009; revoking either token revokes its whole grant.
 */
import express, { type Request as ExpressRequest, type Response as ExpressResponse, type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Kysely } from 'kysely';
import OAuth2Server from '@node-oauth/oauth2-server';
import { createOAuthModel, type OAuthUser } from '../../shared/auth/oauth-model.js';
import { OAuthStore } from '../../shared/auth/oauth-store.js';
import { hashOAuthSecret, isOAuthSecret } from '../../shared/auth/oauth-tokens.js';
import { isServiceError } from '../../shared/errors.js';
import { authenticateApiKey } from '../../shared/keys/api-keys.js';
import type { Logger } from '../../shared/log.js';
import type { Database } from '../../shared/store/schema.js';
import type { AccountStore } from '../../shared/store/types.js';
import { clientCredentialsOf } from './client-auth.js';

const { OAuthError, Request: OAuthRequest, Response: OAuthResponse } = OAuth2Server;

export const OAUTH_DEFAULTS = {
  /** RFC 6749 §4.1.2 recommends at most 10 minutes; a machine flow needs seconds. */
  authorizationCodeLifetimeSeconds: 60,
  accessTokenLifetimeSeconds: 3600,
  refreshTokenLifetimeSeconds: 14 * 24 * 3600,
  /** Form bodies of these endpoints are a few hundred bytes. */
  maxBodyBytes: 16 * 1024,
} as const;

export interface OAuthRouterDeps {
  store: AccountStore;
  db: Kysely<Database>;
  logger: Logger;
  authorizationCodeLifetimeSeconds?: number;
  accessTokenLifetimeSeconds?: number;
  refreshTokenLifetimeSeconds?: number;
}

/** An error answered in the OAuth envelope, outside the library (resource owner, revocation). */
class OAuthEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export function createOAuthRouter(deps: OAuthRouterDeps): Router {
  const options = {
    authorizationCodeLifetimeSeconds: deps.authorizationCodeLifetimeSeconds ?? OAUTH_DEFAULTS.authorizationCodeLifetimeSeconds,
    accessTokenLifetimeSeconds: deps.accessTokenLifetimeSeconds ?? OAUTH_DEFAULTS.accessTokenLifetimeSeconds,
    refreshTokenLifetimeSeconds: deps.refreshTokenLifetimeSeconds ?? OAUTH_DEFAULTS.refreshTokenLifetimeSeconds,
  };
  const oauthStore = new OAuthStore(deps.db);
  const authorizeModel = createOAuthModel({ store: oauthStore, authenticateClients: false });
  const tokenModel = createOAuthModel({ store: oauthStore, authenticateClients: true });
  const authorizeServer = new OAuth2Server({ model: authorizeModel });
  const tokenServer = new OAuth2Server({ model: tokenModel });

  /** The resource owner: a production API key of an Enterprise account, in X-API-Key only (never a URL). */
  const authenticateHandler = {
    async handle(request: InstanceType<typeof OAuthRequest>): Promise<OAuthUser> {
      const key: unknown = request.get('x-api-key');
      let principal;
      try {
        principal = await authenticateApiKey(deps.store, key);
      } catch (err) {
        if (!isServiceError(err)) throw err;
        throw new OAuthEndpointError(401, 'access_denied', 'The resource owner must authenticate with an Enterprise API key in X-API-Key');
      }
      if (principal.plan !== 'enterprise' || principal.keyType !== 'production') {
        throw new OAuthEndpointError(403, 'access_denied', 'Only a production key of an Enterprise account may authorize a client');
      }
      return { accountId: principal.accountId };
    },
  };

  const router = express.Router();
  router.use(function noStore(_req, res, next) {
    // RFC 6749 §5.1: responses carrying tokens (and, here, codes in redirects) are not cached.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    next();
  });
  const form = express.urlencoded({ extended: false, limit: OAUTH_DEFAULTS.maxBodyBytes, parameterLimit: 50 });

  const authorize: RequestHandler = async (req, res) => {
    const response = new OAuthResponse();
    try {
      await authorizeServer.authorize(toOAuthRequest(req), response, {
        authenticateHandler,
        authorizationCodeLifetime: options.authorizationCodeLifetimeSeconds,
      });
    } catch (err) {
      // Errors found after the client and redirect URI were validated go back to the client in the
      // redirect (RFC 6749 §4.1.2.1); earlier ones must not, and are answered here.
      if (!(err instanceof OAuthError) || response.get('location') === undefined) throw err;
      logIfServerError(deps.logger, err);
    }
    sendLibraryResponse(res, response);
  };
  router.get('/authorize', singleValued, authorize);
  router.post('/authorize', form, singleValued, authorize);

  router.post('/token', form, singleValued, async (req, res) => {
    const response = new OAuthResponse();
    try {
      await tokenServer.token(toOAuthRequest(req), response, {
        accessTokenLifetime: options.accessTokenLifetimeSeconds,
        refreshTokenLifetime: options.refreshTokenLifetimeSeconds,
        // The library then lets a refresh request through without a secret; the model still demands
        // one from a confidential client, so this only admits public clients.
        requireClientAuthentication: { refresh_token: false },
        alwaysIssueNewRefreshToken: true,
      });
    } catch (err) {
      // The library writes the error into `response` only once the request shape was accepted;
      // the earlier refusals (method, content type) are answered by the error handler below.
      if (!(err instanceof OAuthError) || (response.body as { error?: unknown } | undefined)?.error === undefined) throw err;
      logIfServerError(deps.logger, err);
    }
    sendLibraryResponse(res, response);
  });

  router.post('/revoke', form, singleValued, async (req, res) => {
    const credentials = clientCredentialsOf(req);
    const client = credentials && (await tokenModel.getClient(credentials.clientId, credentials.clientSecret ?? ''));
    if (!client) {
      if (req.headers.authorization !== undefined) res.setHeader('WWW-Authenticate', 'Basic realm="sha224d"');
      throw new OAuthEndpointError(401, 'invalid_client', 'Invalid client: client authentication failed');
    }
    const token: unknown = (req.body as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || token === '') throw new OAuthEndpointError(400, 'invalid_request', 'Missing parameter: `token`');
    // The prefix tells the kind, so token_type_hint is not needed (RFC 7009 §2.1 lets us ignore it).
    const found = isOAuthSecret('accessToken', token)
      ? await oauthStore.findAccessToken(hashOAuthSecret(token))
      : isOAuthSecret('refreshToken', token)
        ? await oauthStore.findRefreshToken(hashOAuthSecret(token))
        : undefined;
    // RFC 7009 §2.2: an unknown token, or one of another client, is answered 200 like a revoked one.
    if (found && found.clientId === client.id) await oauthStore.revokeGrant(found.grantId);
    res.status(200).end();
  });

  router.use(function oauthErrors(err: unknown, _req, res, _next) {
    if (err instanceof OAuthEndpointError) {
      res.status(err.status).json({ error: err.error, error_description: err.description });
      return;
    }
    if (err instanceof OAuthError) {
      logIfServerError(deps.logger, err);
      res.status(err.code).json({ error: err.name, error_description: err.message });
      return;
    }
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status === 413 ? 413 : 400).json({ error: 'invalid_request', error_description: 'Malformed request body' });
      return;
    }
    deps.logger.error({ err, requestId: res.locals.requestId }, 'oauth request failed');
    res.status(500).json({ error: 'server_error', error_description: 'Internal error' });
  } satisfies ErrorRequestHandler);
  return router;
}

/** RFC 6749 §3.1, §3.2: parameters must not be repeated; anything but one string is refused. */
const singleValued: RequestHandler = function singleValuedParameters(req, _res, next) {
  for (const source of [req.query as Record<string, unknown>, (req.body ?? {}) as Record<string, unknown>]) {
    for (const [name, value] of Object.entries(source)) {
      if (typeof value !== 'string') throw new OAuthEndpointError(400, 'invalid_request', `Parameter ${name} must be given once`);
    }
  }
  next();
};

function toOAuthRequest(req: ExpressRequest): InstanceType<typeof OAuthRequest> {
  return new OAuthRequest({
    headers: req.headers as Record<string, string>,
    method: req.method,
    query: { ...(req.query as Record<string, string>) },
    body: { ...((req.body ?? {}) as Record<string, string>) },
  });
}

function sendLibraryResponse(res: ExpressResponse, response: InstanceType<typeof OAuthResponse>): void {
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  const status = response.status ?? 200;
  if (status >= 300 && status < 400) {
    res.status(status).end();
    return;
  }
  res.status(status).json(response.body ?? {});
}

function logIfServerError(logger: Logger, err: InstanceType<typeof OAuthError>): void {
  if (err.code >= 500) logger.error({ err: (err as { inner?: unknown }).inner ?? err }, 'oauth request failed');
}
