/**
 * The OAuth 2.0 endpoints and the RFC 8414 metadata in the OpenAPI document (./router.ts,
 * ./metadata.ts). They answer the OAuth error envelope {error, error_description} (RFC 6749 §5.2),
 * not a generation's; their form bodies and answers are described here, from what the routes do.
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { CLIENT_AUTH_METHODS, OAUTH_GRANTS, OAUTH_PATHS, OAUTH_SCOPES, WELL_KNOWN_PATHS } from './constants.js';
import type { HeaderRefs } from '../openapi-kit.js';
import { z } from '../schemas/common.js';

const OAuthError = z
  .object({
    error: z
      .string()
      .openapi({ description: 'RFC 6749 §5.2 / §4.1.2.1 error code, e.g. invalid_request, invalid_client, invalid_grant, access_denied' }),
    error_description: z.string(),
  })
  .openapi('OAuthError');

const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Seconds; 3600' }),
    refresh_token: z.string().openapi({ description: 'A new one on every refresh; the old one stops working' }),
    scope: z.string().openapi({ description: 'Space-separated granted scopes' }),
  })
  .openapi('OAuthTokenResponse');

const IntrospectionResponse = z
  .union([
    z.object({ active: z.literal(false) }),
    z.object({
      active: z.literal(true),
      scope: z.string(),
      client_id: z.string(),
      token_type: z.literal('Bearer').optional().openapi({ description: 'Access tokens only' }),
      exp: z.number().int(),
      iat: z.number().int(),
      sub: z.string().openapi({ description: 'The account that authorized the client' }),
      iss: z.string(),
    }),
  ])
  .openapi('OAuthIntrospectionResponse');

const ServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    revocation_endpoint: z.string(),
    introspection_endpoint: z.string(),
    scopes_supported: z.array(z.enum(OAUTH_SCOPES as [string, ...string[]])),
    response_types_supported: z.array(z.literal('code')),
    response_modes_supported: z.array(z.literal('query')),
    grant_types_supported: z.array(z.enum(OAUTH_GRANTS)),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    token_endpoint_auth_methods_supported: z.array(z.enum(CLIENT_AUTH_METHODS as [string, ...string[]])),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    introspection_endpoint_auth_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.literal(true),
  })
  .openapi('AuthorizationServerMetadata');

const AuthorizeParameters = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  redirect_uri: z.string().optional().openapi({ description: "One of the client's registered redirect URIs" }),
  scope: z.string().openapi({ description: `Space-separated, from: ${OAUTH_SCOPES.join(' ')}` }),
  state: z.string().optional(),
  code_challenge: z.string().openapi({ description: 'base64url(SHA-256(code_verifier)), 43 characters (PKCE, required)' }),
  code_challenge_method: z.literal('S256'),
  allowed: z.enum(['true', 'false']).optional().openapi({ description: '`false` denies: the redirect carries error=access_denied' }),
});

const TokenForm = z
  .object({
    grant_type: z.enum(OAUTH_GRANTS),
    code: z.string().optional().openapi({ description: 'authorization_code' }),
    redirect_uri: z.string().optional().openapi({ description: 'authorization_code, when the authorization request had one' }),
    code_verifier: z.string().optional().openapi({ description: 'authorization_code (PKCE)' }),
    refresh_token: z.string().optional().openapi({ description: 'refresh_token' }),
    scope: z.string().optional().openapi({ description: 'refresh_token: a narrower scope' }),
    client_id: z.string().optional().openapi({ description: 'Public clients, and client_secret_post' }),
    client_secret: z.string().optional().openapi({ description: 'client_secret_post' }),
  })
  .openapi('OAuthTokenForm');

const TokenLookupForm = z
  .object({
    token: z.string().min(1),
    token_type_hint: z.enum(['access_token', 'refresh_token']).optional().openapi({ description: 'Ignored: the token says what it is' }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  })
  .openapi('OAuthTokenLookupForm');

const form = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema } },
});

export function registerOAuthPaths(registry: OpenAPIRegistry, headers: HeaderRefs): void {
  registry.registerComponent('securitySchemes', 'OAuthClientBasic', {
    type: 'http',
    scheme: 'basic',
    description:
      'client_secret_basic: the form-urlencoded client id and secret (RFC 6749 §2.3.1). client_secret_post sends them in the form instead.',
  });
  const base = { 'X-Request-Id': headers.requestId };
  const oauthError = (description: string): ResponseConfig => ({
    description,
    headers: base,
    content: { 'application/json': { schema: OAuthError } },
  });
  const common = {
    413: oauthError('invalid_request: the form body is larger than 16 KiB'),
    500: oauthError('server_error'),
  };
  const clientErrors = {
    400: oauthError(
      'invalid_request (a missing, repeated or malformed parameter, or a body that is not form-encoded), invalid_client (wrong credentials in the body), invalid_grant, invalid_scope, unsupported_grant_type',
    ),
    401: {
      ...oauthError('invalid_client: unknown client or wrong secret, sent with HTTP Basic or not at all'),
      headers: { ...base, 'WWW-Authenticate': { description: 'Basic realm="sha224d"', schema: { type: 'string' as const } } },
    },
  };
  // Client authentication: HTTP Basic, or the credentials in the form (client_secret_post), or a
  // public client's id alone (`{}`; refresh only).
  const clientSecurity: Array<Record<string, string[]>> = [{ OAuthClientBasic: [] }, {}];

  const authorize = (method: 'get' | 'post') =>
    registry.registerPath({
      operationId: method === 'get' ? 'authorizeOAuth' : 'authorizeOAuthForm',
      tags: ['OAuth'],
      method,
      path: OAUTH_PATHS.authorize,
      summary: `Authorization code grant with PKCE S256${method === 'post' ? ' (parameters in a form body)' : ''}`,
      description:
        'The resource owner authenticates with a production API key of the Enterprise account that registered the client (X-API-Key), which is its consent. The redirect carries `code`, `state` and `iss` (RFC 9207), or `error`.',
      security: [{ ApiKeyHeader: [] }],
      request: method === 'get' ? { query: AuthorizeParameters } : { body: form(AuthorizeParameters) },
      responses: {
        302: {
          description: 'Redirect to the client: `code`, `state` and `iss`, or `error` (RFC 6749 §4.1.2)',
          headers: {
            ...base,
            Location: { description: 'The redirect URI with the answer in its query', required: true, schema: { type: 'string' } },
          },
        },
        400: oauthError(
          'invalid_request or invalid_client: an unknown client, a redirect URI it did not register, or a malformed request (not redirected)',
        ),
        401: oauthError('access_denied: no valid API key in X-API-Key'),
        403: oauthError('access_denied: the key is not a production key of an Enterprise account'),
        ...common,
      },
    });
  authorize('get');
  authorize('post');

  registry.registerPath({
    operationId: 'tokenOAuth',
    tags: ['OAuth'],
    method: 'post',
    path: OAUTH_PATHS.token,
    summary: 'Exchange an authorization code, or refresh a token (the refresh token rotates)',
    security: clientSecurity,
    request: { body: form(TokenForm) },
    responses: {
      200: {
        description: 'Tokens (RFC 6749 §5.1); `Cache-Control: no-store`',
        headers: base,
        content: { 'application/json': { schema: TokenResponse } },
      },
      ...clientErrors,
      ...common,
    },
  });
  registry.registerPath({
    operationId: 'revokeOAuth',
    tags: ['OAuth'],
    method: 'post',
    path: OAUTH_PATHS.revoke,
    summary: 'Revoke a token and its whole grant (RFC 7009)',
    description: "An unknown token, or another client's, is answered 200 like a revoked one, so the endpoint reveals nothing.",
    security: clientSecurity,
    request: { body: form(TokenLookupForm) },
    responses: { 200: { description: 'Revoked (empty body)', headers: base }, ...clientErrors, ...common },
  });
  registry.registerPath({
    operationId: 'introspectOAuth',
    tags: ['OAuth'],
    method: 'post',
    path: OAUTH_PATHS.introspect,
    summary: "Describe one of the client's own tokens (RFC 7662)",
    description: 'Confidential clients only. Any other token is `{"active": false}`.',
    security: clientSecurity,
    request: { body: form(TokenLookupForm) },
    responses: {
      200: { description: "The token's state", headers: base, content: { 'application/json': { schema: IntrospectionResponse } } },
      ...clientErrors,
      ...common,
    },
  });

  for (const wellKnown of WELL_KNOWN_PATHS) {
    const openid = wellKnown === '/openid-configuration';
    registry.registerPath({
      operationId: openid ? 'getOpenIdConfiguration' : 'getAuthorizationServerMetadata',
      tags: ['OAuth'],
      method: 'get',
      path: `/.well-known${wellKnown}`,
      summary: openid
        ? 'The same authorization server metadata at the OpenID discovery path (RFC 8414 §5); no OpenID Connect is offered'
        : 'Authorization server metadata (RFC 8414)',
      security: [],
      responses: {
        200: {
          description: 'Public, cacheable for an hour, `Access-Control-Allow-Origin: *`',
          headers: base,
          content: { 'application/json': { schema: ServerMetadata } },
        },
        400: oauthError('invalid_request: the Host header is malformed (only when PUBLIC_URL is not set)'),
      },
    });
  }
}
