/**
 * The model @node-oauth/oauth2-server calls for the authorization code grant (with PKCE) and the
 * refresh token grant. The library runs the protocol; the model only stores and finds things, and
 * adds the rules the library leaves to it (docs/auth.md; docs/decisions.md "Enterprise JWT and
 * OAuth 2.0"). Each responsibility has its file, and this one assembles them:
 *  - clients, found and authenticated (model-clients.ts);
 *  - scopes: the permission names, at least one, none unknown (model-scopes.ts);
 *  - authorization codes: PKCE with S256 for every client, only the registering Enterprise account
 *    may authorize, a replayed code revokes its grant (model-codes.ts);
 *  - access tokens, and the saving of every token pair (model-tokens.ts);
 *  - refresh tokens: rotation in the transaction that stores the successors, and replay (model-refresh.ts);
 *  - the owner every code and token carries, with the consent or API key it was issued under, so
 *    ending either revokes them (model-grant.ts).
 * Codes, tokens and client secrets are stored as SHA-256 hashes only (tokens.ts).
 */
import type { AuthorizationCodeModel, RefreshTokenModel } from '@node-oauth/oauth2-server';
import type { OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import type { AccountStore } from '../../../shared/store/types.js';
import { clientById, getClientFor } from './model-clients.js';
import { codeModel } from './model-codes.js';
import { refreshModel } from './model-refresh.js';
import { validateScope, verifyScope } from './model-scopes.js';
import { tokenModel } from './model-tokens.js';

export { OAUTH_GRANTS, OAUTH_SCOPES } from '../constants.js';
export type { OAuthUser } from './model-grant.js';

export interface OAuthModelOptions {
  store: OAuthServerStore;
  /** Whose plan decides whether a token may be issued (Enterprise only). */
  accounts: Pick<AccountStore, 'getAccount'>;
  /**
   * true at the token endpoint: a confidential client must present its secret (in every grant), a
   * public client must not have one. false at the authorization endpoint: lookup by client_id.
   */
  authenticateClients: boolean;
  /** Opportunistic clean-up of long-expired rows on each new code; default true. */
  purgeOnAuthorize?: boolean;
}

export type OAuthModel = AuthorizationCodeModel & RefreshTokenModel;

export function createOAuthModel(options: OAuthModelOptions): OAuthModel {
  const { store, accounts, authenticateClients, purgeOnAuthorize = true } = options;
  const findClient = clientById(store);
  const codes = codeModel(store, findClient, purgeOnAuthorize);
  const tokens = tokenModel(store, accounts, findClient);
  const refresh = refreshModel(store, findClient);
  return {
    getClient: getClientFor(store, authenticateClients),
    generateAuthorizationCode: codes.generateAuthorizationCode,
    generateAccessToken: tokens.generateAccessToken,
    generateRefreshToken: refresh.generateRefreshToken,
    validateScope,
    saveAuthorizationCode: codes.saveAuthorizationCode,
    getAuthorizationCode: codes.getAuthorizationCode,
    revokeAuthorizationCode: codes.revokeAuthorizationCode,
    saveToken: tokens.saveToken,
    getAccessToken: tokens.getAccessToken,
    verifyScope,
    getRefreshToken: refresh.getRefreshToken,
    revokeToken: refresh.revokeToken,
  };
}
