/**
 * What the OAuth 2.0 server (api/oauth) keeps: clients, authorization codes and tokens (tables of
 * migration 0002_oauth). Every secret arrives and leaves as a SHA-256 hex
 * (shared/oauth/tokens.ts), never in clear. The Kysely implementation is
 * shared/store/kysely-oauth-server.ts; the server reaches it as `AccountStore.oauthServer`.
 */
import type { Plan } from './plan.js';

export interface OAuthClientRecord {
  id: string;
  name: string;
  redirectUris: string[];
  accountId: string;
  /** A public client has no secret and authenticates by PKCE alone. */
  isPublic: boolean;
  createdAt: Date;
}

export interface OAuthCodeRecord {
  clientId: string;
  accountId: string;
  grantId: string;
  redirectUri: string;
  scope: string[];
  codeChallenge: string;
  codeChallengeMethod: string;
  expiresAt: Date;
  /**
   * When the code was exchanged, or when the API key that authorised it was revoked (operator path,
   * docs/decisions.md "Enterprise JWT and OAuth 2.0"): either way it can no longer be exchanged.
   */
  consumedAt: Date | null;
  /** The person's consent (oauth_grants) this was issued under; null before consents existed. */
  consentId: string | null;
  /** The API key presented as consent on the operator path; null for a person's consent. */
  apiKeyId: string | null;
}

export interface OAuthTokenRecord {
  clientId: string;
  accountId: string;
  /** The account's plan now (joined), so a downgraded account's tokens stop working at once. */
  accountPlan: Plan | undefined;
  grantId: string;
  consentId: string | null;
  scope: string[];
  /** The API key presented as consent on the operator path; null for a person's consent. */
  apiKeyId: string | null;
  issuedAt: Date;
  expiresAt: Date;
  /** When the token was revoked, or when the API key that authorised it was (whichever came first). */
  revokedAt: Date | null;
}

export interface NewOAuthToken {
  tokenHash: string;
  clientId: string;
  accountId: string;
  grantId: string;
  consentId?: string | null;
  apiKeyId?: string | null;
  scope: string[];
  expiresAt: Date;
}

/**
 * One-way transitions (consuming a code, revoking a token) are conditional: two nodes racing on the
 * same code or refresh token see one winner (RFC 6749 §4.1.2, RFC 9700 §4.14.2).
 */
export interface OAuthServerStore {
  insertClient(input: Omit<OAuthClientRecord, 'isPublic' | 'createdAt'> & { secretHash: string | null }): Promise<OAuthClientRecord>;
  /** The client and its stored secret hash (null for a public client). */
  findClient(id: string): Promise<{ client: OAuthClientRecord; secretHash: string | null } | undefined>;
  listClients(accountId?: string): Promise<OAuthClientRecord[]>;
  /** Deletes the client; its codes and tokens go with it. */
  deleteClient(id: string): Promise<boolean>;

  insertCode(
    codeHash: string,
    code: Omit<OAuthCodeRecord, 'consumedAt' | 'consentId' | 'apiKeyId'> & { consentId?: string | null; apiKeyId?: string | null },
  ): Promise<void>;
  findCode(codeHash: string): Promise<OAuthCodeRecord | undefined>;
  /** Marks the code used; false if it was already used (or never existed). */
  consumeCode(codeHash: string, now?: Date): Promise<boolean>;

  /** An access token and, optionally, its refresh token, together or not at all. */
  insertTokens(access: NewOAuthToken, refresh: NewOAuthToken | undefined): Promise<void>;
  findAccessToken(tokenHash: string): Promise<OAuthTokenRecord | undefined>;
  findRefreshToken(tokenHash: string): Promise<OAuthTokenRecord | undefined>;
  /** Revokes one refresh token; false if it was already revoked (or never existed). */
  revokeRefreshToken(tokenHash: string, now?: Date): Promise<boolean>;
  /**
   * Refresh token rotation, all or nothing: revokes the presented refresh token and stores its
   * successors. False when the old token was already revoked (a concurrent use of it won).
   */
  rotateRefreshToken(oldTokenHash: string, access: NewOAuthToken, refresh: NewOAuthToken, now?: Date): Promise<boolean>;
  /** Revokes every token of a grant and consumes its code (revocation, replay detection). */
  revokeGrant(grantId: string, now?: Date): Promise<void>;
  /**
   * Deletes codes and tokens that expired more than `graceMs` ago (default a day). Until then an
   * expired row still answers "expired" rather than "unknown", and a replayed code is recognised.
   */
  purgeExpired(now?: Date, graceMs?: number): Promise<void>;
}
