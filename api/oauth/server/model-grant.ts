/**
 * The grant every code and token belongs to: what each carries about its owner, and how a replay
 * ends it.
 *
 * A code opens a grant; every token obtained from it, and from its refreshes, shares its id and
 * carries the account and what consented: a person's consent, or on the operator path the API key
 * presented as consent, so ending the consent or revoking the key revokes them (docs/decisions.md
 * "Enterprise JWT and OAuth 2.0" and "Dashboard and accounts"). `grantUser` is the one place that
 * copies them along. A spent code or refresh token presented again revokes its whole grant
 * (`findUnspent`).
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import type { User } from '@node-oauth/oauth2-server';
import type { OAuthServerStore } from '../../../shared/store/oauth-server-types.js';
import { hashOAuthSecret, isOAuthSecret, type OAuthSecretKind } from '../../../shared/oauth/tokens.js';

const { ServerError } = OAuth2Server;

/** What the library passes around as the resource owner. */
export interface OAuthUser extends User {
  accountId: string;
  /** Set once a code exists: every token issued from it, and from its refreshes, shares it. */
  grantId?: string;
  /**
   * The person's consent (oauth_grants) the code is issued under, carried to every token, so ending
   * the consent in the dashboard revokes them (docs/decisions.md "Dashboard and accounts").
   */
  consentId?: string | null;
  /**
   * The API key presented as consent on the operator path, carried to every token like `consentId`,
   * so revoking the key revokes them (docs/decisions.md "Enterprise JWT and OAuth 2.0").
   */
  apiKeyId?: string | null;
  /** Set by `getRefreshToken`: the SHA-256 of the refresh token this request rotates out (in `saveToken`). */
  rotatesRefreshTokenHash?: string;
}

/** What every code and token of a grant carries about its owner. */
export type GrantHolder = {
  accountId: string;
  grantId: string;
  consentId: string | null;
  apiKeyId: string | null;
};

/** The owner of a grant's code or token: its account and grant, and the consent or API key it was issued under. */
export function grantUser(from: Pick<GrantHolder, 'accountId' | 'grantId'> & Partial<GrantHolder>): GrantHolder {
  return { accountId: from.accountId, grantId: from.grantId, consentId: from.consentId ?? null, apiKeyId: from.apiKeyId ?? null };
}

export function grantIdOf(user: User): string {
  const grantId = (user as OAuthUser).grantId;
  if (typeof grantId !== 'string') throw new ServerError('Server error: token has no grant');
  return grantId;
}

/**
 * The stored record of a presented code or refresh token, found by its hash; false when the secret
 * is malformed or unknown. One already `spent` (a code exchanged, a refresh token rotated out, or
 * either read as such once its consenting API key is revoked) is a replay: one of its two holders
 * is not the client, so the whole grant is revoked (RFC 6749 §4.1.2, RFC 9700 §4.14.2) and it is
 * refused.
 */
export async function findUnspent<T extends { grantId: string }>(
  store: Pick<OAuthServerStore, 'revokeGrant'>,
  kind: OAuthSecretKind,
  secret: string,
  find: (hash: string) => Promise<T | undefined>,
  spent: (record: T) => boolean,
): Promise<T | false> {
  if (!isOAuthSecret(kind, secret)) return false;
  const found = await find(hashOAuthSecret(secret));
  if (!found) return false;
  if (spent(found)) {
    await store.revokeGrant(found.grantId);
    return false;
  }
  return found;
}
