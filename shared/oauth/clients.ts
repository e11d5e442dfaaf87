/**
 * OAuth client registration (docs/api.md "Authentication" rule 8: "the application is registered in the
 * dashboard"; here, the admin CLI `oauth register`). The secret is returned once and stored hashed.
 */
import { invalidInput } from '../errors.js';
import type { OAuthClientRecord } from '../store/oauth-server-types.js';
import type { AccountStore } from '../store/types.js';
import { generateOAuthSecret, hashOAuthSecret } from './tokens.js';

const MAX_NAME_LENGTH = 100;
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface NewOAuthClient {
  accountId: string;
  name: string;
  redirectUris: string[];
  /** A public client (native or browser app) gets no secret and must use PKCE; default false. */
  isPublic?: boolean;
}

export interface RegisteredOAuthClient {
  client: OAuthClientRecord;
  clientId: string;
  /** Shown once; undefined for a public client. */
  clientSecret: string | undefined;
}

export async function registerOAuthClient(
  store: Pick<AccountStore, 'getAccount' | 'oauthServer'>,
  input: NewOAuthClient,
): Promise<RegisteredOAuthClient> {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw invalidInput('name', `Name must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  const redirectUris = normalizeRedirectUris(input.redirectUris);
  const account = await store.getAccount(input.accountId);
  if (!account) throw invalidInput('accountId', 'Unknown account');
  if (account.plan !== 'enterprise') throw invalidInput('accountId', 'OAuth clients are available to Enterprise accounts only');

  const clientId = generateOAuthSecret('clientId');
  const clientSecret = input.isPublic === true ? undefined : generateOAuthSecret('clientSecret');
  const client = await store.oauthServer.insertClient({
    id: clientId,
    name,
    redirectUris,
    accountId: input.accountId,
    secretHash: clientSecret === undefined ? null : hashOAuthSecret(clientSecret),
  });
  return { client, clientId, clientSecret };
}

/**
 * Exact-match redirect URIs (RFC 6749 §3.1.2, RFC 9700 §4.1.3): absolute, no fragment, no user
 * info; https, or http on a loopback host for native apps (RFC 8252 §7.3).
 */
export function normalizeRedirectUris(uris: unknown): string[] {
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw invalidInput('redirectUris', `Give 1 to ${MAX_REDIRECT_URIS} redirect URIs`);
  }
  const out: string[] = [];
  for (const uri of uris) {
    if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH || !URL.canParse(uri)) {
      throw invalidInput('redirectUris', 'Each redirect URI must be an absolute URL');
    }
    const url = new URL(uri);
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    if (!secure) throw invalidInput('redirectUris', 'Redirect URIs must use https (http only on a loopback host)');
    if (uri.includes('#') || url.username !== '' || url.password !== '') {
      throw invalidInput('redirectUris', 'Redirect URIs may not have a fragment or user info');
    }
    // Stored as given: the authorization request must repeat it character for character.
    if (!out.includes(uri)) out.push(uri);
  }
  return out;
}
