/**
 * What the OAuth endpoints advertise and the documents describe (RFC 8414 metadata, the OpenAPI
 * document): a module free of @node-oauth/oauth2-server, so that describing the endpoints does not
 * load them (docs/decisions.md "Cold start").
 */
import { PERMISSION_CLAIMS } from '../../shared/auth/principal.js';

/** OAuth scopes are the token permission names (docs/api.md "Authentication" rule 7 shows hash:create and hash:verify). */
export const OAUTH_SCOPES: readonly string[] = Object.values(PERMISSION_CLAIMS);
export const OAUTH_GRANTS = ['authorization_code', 'refresh_token'] as const;

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** What the metadata advertises (RFC 8414 §2): the three methods above, for every endpoint that authenticates clients. */
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = ['client_secret_basic', 'client_secret_post', 'none'];

/** Where the OAuth router and the metadata are mounted (./mounts.ts). */
export const OAUTH_PREFIX = '/oauth';
export const WELL_KNOWN_PREFIX = '/.well-known';

/** Under the issuer's origin; the OAuth router is mounted there (api/compose.ts). */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  introspect: '/oauth/introspect',
} as const;

export const WELL_KNOWN_PATHS = ['/oauth-authorization-server', '/openid-configuration'] as const;
