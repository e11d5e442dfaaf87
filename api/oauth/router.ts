/**
 * OAuth 2.0 endpoints (docs/api.md "Authentication" rule 8; the contract shows none, these are ours,
 * docs/auth.md), declared in ./routes.ts. @node-oauth/oauth2-server runs the authorization code and
 * refresh grants; this router adapts Express to it, authenticates clients itself (one path,
 * ./client-auth.ts, the table's guard) and speaks the OAuth error envelope {error,
 * error_description} (RFC 6749 §5.2), not the v2 one.
 *
 *   GET|POST /oauth/authorize   authorization code grant, PKCE S256 required. In a browser the
 *                               resource owner is the person signed in to the dashboard, who approves
 *                               on the consent page (./consent.ts); what it refuses is a page too
 *                               (./consent-refusals.ts). Operators and scripts may instead
 *                               send a production API key of the Enterprise account that registered
 *                               the client in X-API-Key, which is the consent; `allowed=false` denies.
 *   POST /oauth/token           grant_type=authorization_code | refresh_token.
 *   POST /oauth/revoke          RFC 7009; revoking either token revokes its whole grant.
 *   POST /oauth/introspect      RFC 7662, for the client's own tokens.
 *   GET /.well-known/oauth-authorization-server (and openid-configuration)   RFC 8414 (./metadata.ts).
 */
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse, type Router } from 'express';
import OAuth2Server, { type Client } from '@node-oauth/oauth2-server';
import { createOAuthModel, type OAuthModel, type OAuthUser } from './server/model.js';
import { isServiceError } from '../../shared/errors.js';
import { authenticateApiKey } from '../../shared/keys/api-keys.js';
import type { Logger } from '../../shared/log.js';
import type { AccountStore } from '../../shared/store/types.js';
import { DASHBOARD_DIST } from '../dashboard-dist.js';
import { createClientAuthenticator, type AuthenticatedClient, type ClientCredentials } from './client-auth.js';
import { createConsentFlow } from './consent.js';
import { consentRefusals, refusalPages, wantsPage } from './consent-refusals.js';
import { clientErrorStatus, logIfServerError, OAuthEndpointError, oauthErrorHandler } from './errors.js';
import { issuerOf } from './issuer.js';
import { introspectionHandler, revocationHandler } from './token-lookups.js';
import { mountRoutes } from '../http/route-table.js';
import { OAUTH_ROUTES, type OAuthContext } from './routes.js';

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
  /** Its `oauthServer` holds clients, codes and tokens; its accounts and keys are the resource owners. */
  store: AccountStore;
  /** The built dashboard (default dist/dashboard), for the consent page's template. */
  dashboardDir?: string;
  logger: Logger;
  /**
   * PUBLIC_URL: the issuer when set, else the origin each request reached (./issuer.ts); also an
   * origin the consent forms may be posted from, besides the one reached.
   */
  publicUrl?: string | undefined;
  authorizationCodeLifetimeSeconds?: number;
  accessTokenLifetimeSeconds?: number;
  refreshTokenLifetimeSeconds?: number;
}

export function createOAuthRouter(deps: OAuthRouterDeps): Router {
  const options = {
    authorizationCodeLifetimeSeconds: deps.authorizationCodeLifetimeSeconds ?? OAUTH_DEFAULTS.authorizationCodeLifetimeSeconds,
    accessTokenLifetimeSeconds: deps.accessTokenLifetimeSeconds ?? OAUTH_DEFAULTS.accessTokenLifetimeSeconds,
    refreshTokenLifetimeSeconds: deps.refreshTokenLifetimeSeconds ?? OAUTH_DEFAULTS.refreshTokenLifetimeSeconds,
  };
  const oauthStore = deps.store.oauthServer;
  const authorizeServer = new OAuth2Server({
    model: createOAuthModel({ store: oauthStore, accounts: deps.store, authenticateClients: false }),
  });
  const tokenModel = createOAuthModel({ store: oauthStore, accounts: deps.store, authenticateClients: true });
  const authenticateClient = createClientAuthenticator(async (id, secret) => (await tokenModel.getClient(id, secret ?? '')) || false);

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
      // The key is the consent: revoking it revokes what it authorised (docs/decisions.md "Enterprise JWT and OAuth 2.0").
      return { accountId: principal.accountId, apiKeyId: principal.credentialId };
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

  /** Runs the library's authorization with `owner` as the resource owner and answers (redirect or error). */
  async function runAuthorize(
    req: ExpressRequest,
    res: ExpressResponse,
    owner: { handle(request: InstanceType<typeof OAuthRequest>): Promise<OAuthUser> },
    params?: Record<string, string>,
  ): Promise<void> {
    const issuer = issuerOf(req, deps.publicUrl);
    const response = new OAuthResponse();
    const request = params
      ? new OAuthRequest({ headers: { ...(req.headers as Record<string, string>) }, method: 'GET', query: params, body: {} })
      : toOAuthRequest(req);
    try {
      await authorizeServer.authorize(request, response, {
        authenticateHandler: owner,
        authorizationCodeLifetime: options.authorizationCodeLifetimeSeconds,
      });
    } catch (err) {
      // Errors found after the client and redirect URI were validated go back to the client in the
      // redirect (RFC 6749 §4.1.2.1); earlier ones must not, and are answered here.
      if (!(err instanceof OAuthError) || response.get('location') === undefined) throw err;
      logIfServerError(deps.logger, err);
    }
    addIssuerToRedirect(response, issuer);
    sendLibraryResponse(res, response);
  }

  const dashboardDir = deps.dashboardDir ?? DASHBOARD_DIST;
  const refuse = refusalPages(dashboardDir);
  const consent = createConsentFlow({ store: deps.store, oauthStore, dashboardDir, publicUrl: deps.publicUrl, refuse });
  /**
   * A script's invalid client or redirect URI: the library's own client checks answer it. A missing
   * redirect URI among several passes them, and is refused here (no resource owner), never redirected.
   */
  const noOwner = {
    handle(): Promise<OAuthUser> {
      return Promise.reject(new OAuthEndpointError(401, 'access_denied', 'Sign in to the dashboard to authorize an application'));
    },
  };

  const authorize = async (req: ExpressRequest, res: ExpressResponse): Promise<void> => {
    // The operator path: a production key of the Enterprise account in X-API-Key is the consent
    // (scripts and tests; docs/auth.md). Browsers use the dashboard session and the consent page.
    if (req.get('x-api-key') !== undefined) return runAuthorize(req, res, authenticateHandler);
    const outcome = await consent(req, res);
    switch (outcome.kind) {
      case 'answered':
        return;
      case 'library':
        return runAuthorize(req, res, noOwner);
      case 'deny':
        return runAuthorize(req, res, { handle: () => Promise.resolve({ accountId: '' }) }, { ...outcome.params, allowed: 'false' });
      case 'issue':
        return runAuthorize(req, res, { handle: () => Promise.resolve(outcome.user) }, outcome.params);
    }
  };
  // The client authenticated by the guard, for the endpoint it called.
  const clients = new WeakMap<ExpressRequest, AuthenticatedClient>();
  const clientOf = (req: ExpressRequest): AuthenticatedClient => {
    const found = clients.get(req);
    if (found === undefined) throw new Error('OAuth route without client authentication');
    return found;
  };
  const token = async (req: ExpressRequest, res: ExpressResponse): Promise<void> => {
    const { client, credentials } = clientOf(req);
    // The client is authenticated by the guard, so the library is handed a model that already knows
    // it, and the credentials, decoded, in the form body: the library's own Basic parsing, which does
    // not form-urldecode (RFC 6749 §2.3.1), never runs.
    const server = new OAuth2Server({ model: modelKnowing(tokenModel, client) });
    const response = new OAuthResponse();
    try {
      await server.token(toOAuthRequest(req, credentials), response, {
        accessTokenLifetime: options.accessTokenLifetimeSeconds,
        refreshTokenLifetime: options.refreshTokenLifetimeSeconds,
        // Public clients refresh with their client_id alone (confidential ones were checked above).
        requireClientAuthentication: { refresh_token: false },
        alwaysIssueNewRefreshToken: true,
      });
    } catch (err) {
      // The library writes the error into `response` only once the request shape was accepted;
      // the earlier refusals are answered by the error handler below.
      if (!(err instanceof OAuthError) || (response.body as { error?: unknown } | undefined)?.error === undefined) throw err;
      logIfServerError(deps.logger, err);
    }
    sendLibraryResponse(res, response);
  };

  const ctx: OAuthContext = {
    // Client credentials may be in the form (client_secret_post): the body is read, and checked, first.
    bodyFirst: true,
    bodies: { form },
    // An unknown method is passed on, to the node's 404, as before the table (no 405s).
    methodNotAllowed: false,
    guard: (permission) =>
      permission === 'client'
        ? [
            async function authenticateOAuthClient(req, _res, next) {
              clients.set(req, await authenticateClient(req));
              next();
            },
          ]
        : // The resource owner is found by the authorize endpoint: the API key, or the consent page's session.
          [],
    endpoints: {
      authorize,
      token,
      revoke: revocationHandler({ clientOf, store: oauthStore }),
      introspect: introspectionHandler({ clientOf, store: oauthStore, publicUrl: deps.publicUrl }),
    },
  };
  mountRoutes(router, OAUTH_ROUTES, ctx);
  router.use('/authorize', function browserRefusalPage(err: unknown, req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    // A browser's malformed request (a repeated parameter, a form body that does not parse) gets a
    // page like every other refusal of the consent flow; scripts keep the envelope.
    const status = clientErrorStatus(err);
    if (req.get('x-api-key') !== undefined || status === undefined || !wantsPage(req)) return next(err);
    refuse(res, consentRefusals.malformedRequest(status));
  });

  router.use(oauthErrorHandler(deps.logger));
  return router;
}

function modelKnowing(model: OAuthModel, client: Client): OAuthModel {
  return { ...model, getClient: (clientId: string) => Promise.resolve(clientId === client.id ? client : false) };
}

/**
 * The library's view of a request. With `credentials` (already checked), they travel in the body
 * alone, decoded, whichever way the client sent them; the Authorization header is dropped.
 */
function toOAuthRequest(req: ExpressRequest, credentials?: ClientCredentials): InstanceType<typeof OAuthRequest> {
  const headers = { ...(req.headers as Record<string, string>) };
  const body = { ...((req.body ?? {}) as Record<string, string>) };
  if (credentials) {
    delete headers.authorization;
    delete body.client_secret;
    body.client_id = credentials.clientId;
    if (credentials.clientSecret !== undefined) body.client_secret = credentials.clientSecret;
  }
  return new OAuthRequest({ headers, method: req.method, query: { ...(req.query as Record<string, string>) }, body });
}

/**
 * RFC 9207: an authorization response, success or error, names its issuer, so a client talking to
 * several servers can tell which one answered (mix-up attacks). Registered redirect URIs have no
 * fragment and the library always adds a query, so appending keeps the rest byte for byte.
 */
function addIssuerToRedirect(response: InstanceType<typeof OAuthResponse>, issuer: string): void {
  const location: unknown = response.get('location');
  if (typeof location !== 'string') return;
  response.set('location', `${location}${location.includes('?') ? '&' : '?'}iss=${encodeURIComponent(issuer)}`);
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
