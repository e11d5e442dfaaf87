/**
 * Authorization codes for the @node-oauth/oauth2-server model (docs/decisions.md "Enterprise JWT
 * and OAuth 2.0"):
 *  - only the Enterprise account that registered a client may authorize it;
 *  - PKCE with S256 is required for every client, confidential or public (RFC 9700 §2.1.1);
 *  - each code opens a grant: every token obtained from it, and from its refreshes, shares its id,
 *    and carries the consent or API key the code was issued under (model-grant.ts);
 *  - a code is single-use: a replayed one revokes every token of its grant (RFC 6749 §4.1.2);
 *  - a code is stored as its SHA-256 only; each new one purges long-expired rows.
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import type { AuthorizationCodeModel } from '@node-oauth/oauth2-server';
import type { OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import type { ClientById } from './model-clients.js';
import { findUnspent, grantIdOf, grantUser, type OAuthUser } from './model-grant.js';
import { generateOAuthSecret, hashOAuthSecret } from '../../../shared/oauth/tokens.js';

const { AccessDeniedError, InvalidRequestError } = OAuth2Server;

/** base64url(SHA-256(verifier)), unpadded: exactly 43 characters. */
const S256_CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;

export type CodeModel = Pick<
  AuthorizationCodeModel,
  'generateAuthorizationCode' | 'saveAuthorizationCode' | 'getAuthorizationCode' | 'revokeAuthorizationCode'
>;

export function codeModel(store: OAuthServerStore, findClient: ClientById, purgeOnAuthorize: boolean): CodeModel {
  return {
    generateAuthorizationCode: () => Promise.resolve(generateOAuthSecret('code')),

    async saveAuthorizationCode(code, client, user) {
      const owner = user as OAuthUser;
      if (owner.accountId !== client.accountId) {
        throw new AccessDeniedError('Access denied: only the account that registered the client may authorize it');
      }
      if (!code.codeChallenge || !S256_CHALLENGE_RE.test(code.codeChallenge)) {
        throw new InvalidRequestError('Invalid request: PKCE is required: send `code_challenge` with `code_challenge_method` S256');
      }
      if (code.codeChallengeMethod !== 'S256') throw new InvalidRequestError('Invalid request: `code_challenge_method` must be S256');
      const grantId = generateOAuthSecret('grantId');
      await store.insertCode(hashOAuthSecret(code.authorizationCode), {
        clientId: client.id,
        accountId: owner.accountId,
        grantId,
        redirectUri: code.redirectUri,
        scope: code.scope ?? [],
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
        expiresAt: code.expiresAt,
        consentId: owner.consentId ?? null,
        apiKeyId: owner.apiKeyId ?? null,
      });
      if (purgeOnAuthorize) void store.purgeExpired().catch(() => undefined);
      return { ...code, client, user: grantUser({ ...owner, grantId }) };
    },

    async getAuthorizationCode(authorizationCode) {
      // Exchanged already, or its consenting API key revoked (the store reads both as consumed).
      const code = await findUnspent(
        store,
        'code',
        authorizationCode,
        (hash) => store.findCode(hash),
        (c) => c.consumedAt !== null,
      );
      if (!code) return false;
      const client = await findClient(code.clientId);
      if (!client) return false;
      return {
        authorizationCode,
        expiresAt: code.expiresAt,
        redirectUri: code.redirectUri,
        scope: code.scope,
        client,
        user: grantUser(code),
        codeChallenge: code.codeChallenge,
        codeChallengeMethod: code.codeChallengeMethod,
      };
    },

    async revokeAuthorizationCode(code) {
      const consumed = await store.consumeCode(hashOAuthSecret(code.authorizationCode));
      // Lost a race with another exchange of the same code: that is a replay too.
      if (!consumed) await store.revokeGrant(grantIdOf(code.user));
      return consumed;
    },
  };
}
