/**
 * Client authentication, one path for /oauth/token, /oauth/revoke and /oauth/introspect
 * (RFC 6749 §2.3; RFC 7009 §2.1 and RFC 7662 §2.1 defer to it).
 *
 *  - client_secret_basic: `Authorization: Basic base64(urlencode(id) ":" urlencode(secret))`. The id
 *    and secret are form-urldecoded after the base64 decoding (RFC 6749 §2.3.1), so `s224c%5F…`, which
 *    oauth4webapi and other careful libraries send, is `s224c_…`; curl's raw `-u id:secret` decodes
 *    to itself (our ids and secrets hold no `%` or `+`).
 *  - client_secret_post: `client_id` and `client_secret` in the form body.
 *  - none: a public client names itself with `client_id` alone and proves nothing (PKCE does).
 *
 * One method per request (RFC 6749 §2.3: "MUST NOT use more than one authentication method"): a
 * `client_secret` in the body next to a Basic header is `invalid_request` (RFC 6749 §5.2 lists "utilizes
 * more than one mechanism for authenticating the client" under it). A `client_id` in the body next to
 * Basic only identifies (RFC 6749 §3.2.1); it is accepted when it names the same client, refused otherwise.
 */
import type { Request } from 'express';
import type { Client } from '@node-oauth/oauth2-server';
import { BASIC_CHALLENGE, OAuthEndpointError } from './errors.js';

import type { ClientAuthMethod } from './constants.js';

export { CLIENT_AUTH_METHODS, type ClientAuthMethod } from './constants.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string | undefined;
  method: ClientAuthMethod;
}

export interface AuthenticatedClient {
  client: Client;
  credentials: ClientCredentials;
}

/** Looks a client up and checks its secret (a public client must present none); false when either fails. */
export type ClientLookup = (clientId: string, clientSecret: string | undefined) => Promise<Client | false>;

const FAILED = 'Invalid client: client authentication failed';

export function clientCredentialsOf(req: Request): ClientCredentials {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const header = req.headers.authorization;
  if (header !== undefined) {
    const basic = basicCredentialsOf(header);
    if (!basic)
      throw new OAuthEndpointError(401, 'invalid_client', 'Invalid client: send the client credentials as HTTP Basic', BASIC_CHALLENGE);
    if (body.client_secret !== undefined) {
      throw new OAuthEndpointError(
        400,
        'invalid_request',
        'Invalid request: authenticate the client one way only, HTTP Basic or client_secret in the body, not both',
      );
    }
    if (body.client_id !== undefined && body.client_id !== basic.clientId) {
      throw new OAuthEndpointError(400, 'invalid_request', 'Invalid request: client_id differs from the HTTP Basic client');
    }
    return { ...basic, method: 'client_secret_basic' };
  }
  const clientId = body.client_id;
  const clientSecret = body.client_secret;
  if (clientId === undefined && clientSecret === undefined) {
    throw new OAuthEndpointError(401, 'invalid_client', 'Invalid client: client authentication is required', BASIC_CHALLENGE);
  }
  if (typeof clientId !== 'string' || clientId === '') throw new OAuthEndpointError(400, 'invalid_client', FAILED);
  if (clientSecret === undefined) return { clientId, clientSecret: undefined, method: 'none' };
  if (typeof clientSecret !== 'string' || clientSecret === '') throw new OAuthEndpointError(400, 'invalid_client', FAILED);
  return { clientId, clientSecret, method: 'client_secret_post' };
}

/** Credentials, then the lookup: the client, or invalid_client (401 with a Basic challenge when Basic was tried, RFC 6749 §5.2). */
export function createClientAuthenticator(lookup: ClientLookup): (req: Request) => Promise<AuthenticatedClient> {
  return async function authenticateClient(req) {
    const credentials = clientCredentialsOf(req);
    const client = await lookup(credentials.clientId, credentials.clientSecret);
    if (!client) {
      throw credentials.method === 'client_secret_basic'
        ? new OAuthEndpointError(401, 'invalid_client', FAILED, BASIC_CHALLENGE)
        : new OAuthEndpointError(400, 'invalid_client', FAILED);
    }
    return { client, credentials };
  };
}

/** RFC 7617 Basic credentials, each half form-urldecoded (RFC 6749 §2.3.1); undefined when malformed or either half is empty. */
export function basicCredentialsOf(header: string): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, then percent-escapes. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
