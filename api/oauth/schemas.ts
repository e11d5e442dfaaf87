/**
 * The OAuth endpoints' requests and answers (./routes.ts documents each route with them): form
 * bodies and the OAuth error envelope {error, error_description} (RFC 6749 §5.2), not a
 * generation's. The endpoints themselves parse with @node-oauth/oauth2-server and ./form-checks.ts.
 */
import { z } from '../schemas/common.js';
import { CLIENT_AUTH_METHODS, OAUTH_GRANTS, OAUTH_SCOPES } from './constants.js';

export const OAuthError = z
  .object({
    error: z
      .string()
      .openapi({ description: 'RFC 6749 §5.2 / §4.1.2.1 error code, e.g. invalid_request, invalid_client, invalid_grant, access_denied' }),
    error_description: z.string(),
  })
  .openapi('OAuthError');

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ description: 'Seconds; 3600' }),
    refresh_token: z.string().openapi({ description: 'A new one on every refresh; the old one stops working' }),
    scope: z.string().openapi({ description: 'Space-separated granted scopes' }),
  })
  .openapi('OAuthTokenResponse');

export const IntrospectionResponse = z
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

export const ServerMetadata = z
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

export const AuthorizeParameters = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  redirect_uri: z.string().optional().openapi({ description: "One of the client's registered redirect URIs" }),
  scope: z.string().openapi({ description: `Space-separated, from: ${OAUTH_SCOPES.join(' ')}` }),
  state: z.string().optional(),
  code_challenge: z.string().openapi({ description: 'base64url(SHA-256(code_verifier)), 43 characters (PKCE, required)' }),
  code_challenge_method: z.literal('S256'),
  allowed: z.enum(['true', 'false']).optional().openapi({ description: '`false` denies: the redirect carries error=access_denied' }),
});

export const TokenForm = z
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

export const TokenLookupForm = z
  .object({
    token: z.string().min(1),
    token_type_hint: z.enum(['access_token', 'refresh_token']).optional().openapi({ description: 'Ignored: the token says what it is' }),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
  })
  .openapi('OAuthTokenLookupForm');
