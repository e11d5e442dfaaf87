/**
 * The OAuth 2.0 endpoints in the one route shape (api/http/route-table.ts), each declared once:
 * what it takes, who may call it and its OpenAPI operation. The declaration is light (no
 * @node-oauth/oauth2-server): describing the endpoints does not load them. The handlers are built
 * by ./router.ts and ./metadata.ts, each loaded on its first request (./mounts.ts, api/lazy.ts).
 *
 * Who may call: `client` — the client authenticates (HTTP Basic, the form's client_secret_post,
 * or a public client's id alone; ./client-auth.ts), the table's guard; `resource-owner` — the
 * person consenting, on the consent page or with an Enterprise API key (decided by the handler,
 * ./router.ts); `public` — anyone.
 */
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response } from 'express';
import type { Generation, RouteDoc } from '../openapi-kit.js';
import type { Route, TableContext } from '../http/route-table.js';
import type { z } from '../schemas/common.js';
import { OAUTH_PATHS, OAUTH_PREFIX, WELL_KNOWN_PATHS } from './constants.js';
import { formOnly, singleValued } from './form-checks.js';
import {
  AuthorizeParameters,
  IntrospectionResponse,
  OAuthError,
  ServerMetadata,
  TokenForm,
  TokenLookupForm,
  TokenResponse,
} from './schemas.js';

export type OAuthPermission = 'client' | 'resource-owner' | 'public';

type Endpoint = (req: Request, res: Response) => Promise<void>;

/** What ./router.ts hands the /oauth routes: its endpoints, and the client authentication as the guard. */
export interface OAuthContext extends TableContext<OAuthPermission> {
  endpoints: { authorize: Endpoint; token: Endpoint; revoke: Endpoint; introspect: Endpoint };
}

/** What ./metadata.ts hands the /.well-known routes. */
export interface MetadataContext extends TableContext<OAuthPermission> {
  metadata: RequestHandler;
}

export { OAUTH_PREFIX, WELL_KNOWN_PREFIX } from './constants.js';

const inside = (path: string): string => path.slice(OAUTH_PREFIX.length);

/** The security requirement each permission documents. */
export function oauthSecurity(permission: OAuthPermission): Array<Record<string, string[]>> {
  switch (permission) {
    case 'client':
      // HTTP Basic, or the credentials in the form (client_secret_post), or a public client's id alone (`{}`; refresh only).
      return [{ OAuthClientBasic: [] }, {}];
    case 'resource-owner':
      return [{ ApiKeyHeader: [] }];
    case 'public':
      return [];
  }
}

const requestId = (gen: Generation) => ({ 'X-Request-Id': gen.headers.requestId });
const oauthError = (gen: Generation, description: string): ResponseConfig => ({
  description,
  headers: requestId(gen),
  content: { 'application/json': { schema: OAuthError } },
});
const form = (schema: z.ZodType) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema } } });
const common = (gen: Generation) => ({
  413: oauthError(gen, 'invalid_request: the form body is larger than 16 KiB'),
  500: oauthError(gen, 'server_error'),
});
const clientErrors = (gen: Generation) => ({
  400: oauthError(
    gen,
    'invalid_request (a missing, repeated or malformed parameter, or a body that is not form-encoded), invalid_client (wrong credentials in the body), invalid_grant, invalid_scope, unsupported_grant_type',
  ),
  401: {
    ...oauthError(gen, 'invalid_client: unknown client or wrong secret, sent with HTTP Basic or not at all'),
    headers: { ...requestId(gen), 'WWW-Authenticate': { description: 'Basic realm="sha224d"', schema: { type: 'string' as const } } },
  },
  ...common(gen),
});

function authorizeDoc(method: 'get' | 'post'): RouteDoc {
  return {
    operationId: method === 'get' ? 'authorizeOAuth' : 'authorizeOAuthForm',
    summary: `Authorization code grant with PKCE S256${method === 'post' ? ' (parameters in a form body)' : ''}`,
    description:
      'The resource owner authenticates with a production API key of the Enterprise account that registered the client (X-API-Key), which is its consent. The redirect carries `code`, `state` and `iss` (RFC 9207), or `error`.',
    custom: (gen) => ({
      request: method === 'get' ? { query: AuthorizeParameters } : { body: form(AuthorizeParameters) },
      responses: {
        302: {
          description: 'Redirect to the client: `code`, `state` and `iss`, or `error` (RFC 6749 §4.1.2)',
          headers: {
            ...requestId(gen),
            Location: { description: 'The redirect URI with the answer in its query', required: true, schema: { type: 'string' } },
          },
        },
        400: oauthError(
          gen,
          'invalid_request or invalid_client: an unknown client, a redirect URI it did not register, or a malformed request (not redirected)',
        ),
        401: oauthError(gen, 'access_denied: no valid API key in X-API-Key'),
        403: oauthError(gen, 'access_denied: the key is not a production key of an Enterprise account'),
        ...common(gen),
      },
    }),
  };
}

/** Below OAUTH_PREFIX. RFC 6749 §5.1: every answer is `Cache-Control: no-store` (./router.ts). */
export const OAUTH_ROUTES: ReadonlyArray<Route<OAuthPermission, OAuthContext>> = [
  {
    method: 'get',
    path: inside(OAUTH_PATHS.authorize),
    permission: 'resource-owner',
    before: [singleValued],
    handle: (ctx, req, res) => ctx.endpoints.authorize(req, res),
    doc: authorizeDoc('get'),
  },
  {
    method: 'post',
    path: inside(OAUTH_PATHS.authorize),
    permission: 'resource-owner',
    body: 'form',
    before: [singleValued],
    handle: (ctx, req, res) => ctx.endpoints.authorize(req, res),
    doc: authorizeDoc('post'),
  },
  {
    method: 'post',
    path: inside(OAUTH_PATHS.token),
    permission: 'client',
    body: 'form',
    before: [formOnly, singleValued],
    handle: (ctx, req, res) => ctx.endpoints.token(req, res),
    doc: {
      operationId: 'tokenOAuth',
      summary: 'Exchange an authorization code, or refresh a token (the refresh token rotates)',
      custom: (gen) => ({
        request: { body: form(TokenForm) },
        responses: {
          200: {
            description: 'Tokens (RFC 6749 §5.1); `Cache-Control: no-store`',
            headers: requestId(gen),
            content: { 'application/json': { schema: TokenResponse } },
          },
          ...clientErrors(gen),
        },
      }),
    },
  },
  {
    method: 'post',
    path: inside(OAUTH_PATHS.revoke),
    permission: 'client',
    body: 'form',
    before: [formOnly, singleValued],
    handle: (ctx, req, res) => ctx.endpoints.revoke(req, res),
    doc: {
      operationId: 'revokeOAuth',
      summary: 'Revoke a token and its whole grant (RFC 7009)',
      description: "An unknown token, or another client's, is answered 200 like a revoked one, so the endpoint reveals nothing.",
      custom: (gen) => ({
        request: { body: form(TokenLookupForm) },
        responses: { 200: { description: 'Revoked (empty body)', headers: requestId(gen) }, ...clientErrors(gen) },
      }),
    },
  },
  {
    method: 'post',
    path: inside(OAUTH_PATHS.introspect),
    permission: 'client',
    body: 'form',
    before: [formOnly, singleValued],
    handle: (ctx, req, res) => ctx.endpoints.introspect(req, res),
    doc: {
      operationId: 'introspectOAuth',
      summary: "Describe one of the client's own tokens (RFC 7662)",
      description: 'Confidential clients only. Any other token is `{"active": false}`.',
      custom: (gen) => ({
        request: { body: form(TokenLookupForm) },
        responses: {
          200: {
            description: "The token's state",
            headers: requestId(gen),
            content: { 'application/json': { schema: IntrospectionResponse } },
          },
          ...clientErrors(gen),
        },
      }),
    },
  },
];

/** Below WELL_KNOWN_PREFIX: the authorization server metadata (RFC 8414), public and cacheable. */
export const WELL_KNOWN_ROUTES: ReadonlyArray<Route<OAuthPermission, MetadataContext>> = WELL_KNOWN_PATHS.map((path) => {
  const openid = path === '/openid-configuration';
  return {
    method: 'get',
    path,
    permission: 'public',
    handle: (ctx, req, res, next) => ctx.metadata(req, res, next),
    doc: {
      operationId: openid ? 'getOpenIdConfiguration' : 'getAuthorizationServerMetadata',
      summary: openid
        ? 'The same authorization server metadata at the OpenID discovery path (RFC 8414 §5); no OpenID Connect is offered'
        : 'Authorization server metadata (RFC 8414)',
      custom: (gen) => ({
        responses: {
          200: {
            description: 'Public, cacheable for an hour, `Access-Control-Allow-Origin: *`',
            headers: requestId(gen),
            content: { 'application/json': { schema: ServerMetadata } },
          },
          400: oauthError(gen, 'invalid_request: the Host header is malformed (only when PUBLIC_URL is not set)'),
        },
      }),
    },
  };
});
