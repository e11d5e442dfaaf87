/**
 * Clients for the @node-oauth/oauth2-server model: found by id, and at the token endpoint
 * authenticated (docs/decisions.md "Enterprise JWT and OAuth 2.0": a confidential client presents
 * its secret in every grant, a public client has none and must not send one). Secrets are compared
 * with their stored SHA-256 in constant time (tokens.ts).
 */
import type { Client } from '@node-oauth/oauth2-server';
import { OAUTH_GRANTS } from '../constants.js';
import type { OAuthClientRecord, OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import { isOAuthSecret, oauthSecretMatches } from '../../../shared/oauth/tokens.js';

/** The registered client `clientId` names, as the library sees it; false when none. */
export type ClientById = (clientId: string) => Promise<Client | false>;

export function clientById(store: OAuthServerStore): ClientById {
  return async (clientId) => {
    const found = await findClient(store, clientId);
    return found ? toLibraryClient(found.client) : false;
  };
}

/**
 * The model's `getClient`. `authenticateClients` is true at the token endpoint (the secret must
 * match, or be absent for a public client); false at the authorization endpoint (lookup by id).
 */
export function getClientFor(
  store: OAuthServerStore,
  authenticateClients: boolean,
): (clientId: string, clientSecret: string | null | undefined) => Promise<Client | false> {
  return async (clientId: string, clientSecret: string | null | undefined): Promise<Client | false> => {
    const found = await findClient(store, clientId);
    if (!found) return false;
    if (authenticateClients && !secretAccepted(found.secretHash, clientSecret)) return false;
    return toLibraryClient(found.client);
  };
}

function findClient(store: OAuthServerStore, clientId: string): ReturnType<OAuthServerStore['findClient']> | undefined {
  return isOAuthSecret('clientId', clientId) ? store.findClient(clientId) : undefined;
}

function secretAccepted(secretHash: string | null, clientSecret: string | null | undefined): boolean {
  if (secretHash === null) return !clientSecret;
  return !!clientSecret && oauthSecretMatches(clientSecret, secretHash);
}

function toLibraryClient(client: OAuthClientRecord): Client {
  return {
    id: client.id,
    redirectUris: client.redirectUris,
    grants: [...OAUTH_GRANTS],
    accountId: client.accountId,
    isPublic: client.isPublic,
  };
}
