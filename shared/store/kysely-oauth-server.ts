/**
 * The OAuth server's store (./oauth-server-types.ts) over the service's Kysely database (tables of
 * migration 0002_oauth). One-way transitions (consuming a code, revoking a token) are single
 * conditional UPDATEs, so two nodes racing on the same code see one winner.
 */
import type { Kysely, Selectable } from 'kysely';
import type { NewOAuthToken, OAuthClientRecord, OAuthCodeRecord, OAuthServerStore, OAuthTokenRecord } from './oauth-server-types.js';
import { newOAuthClientRow, splitScope, toDate, toNullableDate, toOAuthClient } from './rows.js';
import type { Database, OAuthCodesTable, OAuthTokensTable } from './schema.js';
import { PLANS, type Plan } from './types.js';

type TokenTable = 'oauth_access_tokens' | 'oauth_refresh_tokens';

export class KyselyOAuthServerStore implements OAuthServerStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insertClient(input: Omit<OAuthClientRecord, 'isPublic' | 'createdAt'> & { secretHash: string | null }): Promise<OAuthClientRecord> {
    const row = newOAuthClientRow(input, Date.now());
    await this.db.insertInto('oauth_clients').values(row).execute();
    return toOAuthClient(row);
  }

  /** The client and its stored secret hash (null for a public client). */
  async findClient(id: string): Promise<{ client: OAuthClientRecord; secretHash: string | null } | undefined> {
    const row = await this.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { client: toOAuthClient(row), secretHash: row.secret_hash };
  }

  async listClients(accountId?: string): Promise<OAuthClientRecord[]> {
    let query = this.db.selectFrom('oauth_clients').selectAll().orderBy('created_at').orderBy('id');
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return (await query.execute()).map(toOAuthClient);
  }

  /** Deletes the client; its codes and tokens go with it (ON DELETE CASCADE). */
  async deleteClient(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst();
    return res.numDeletedRows > 0n;
  }

  async insertCode(
    codeHash: string,
    code: Omit<OAuthCodeRecord, 'consumedAt' | 'consentId' | 'apiKeyId'> & { consentId?: string | null; apiKeyId?: string | null },
  ): Promise<void> {
    await this.db
      .insertInto('oauth_codes')
      .values({
        code_hash: codeHash,
        client_id: code.clientId,
        account_id: code.accountId,
        grant_id: code.grantId,
        redirect_uri: code.redirectUri,
        scope: code.scope.join(' '),
        code_challenge: code.codeChallenge,
        code_challenge_method: code.codeChallengeMethod,
        created_at: Date.now(),
        expires_at: code.expiresAt.getTime(),
        consumed_at: null,
        consent_id: code.consentId ?? null,
        api_key_id: code.apiKeyId ?? null,
      })
      .execute();
  }

  /** With the revocation of the API key that authorised it, if any: such a code counts as used from then on. */
  async findCode(codeHash: string): Promise<OAuthCodeRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_codes as c')
      .leftJoin('api_keys as k', 'k.id', 'c.api_key_id')
      .selectAll('c')
      .select('k.revoked_at as key_revoked_at')
      .where('c.code_hash', '=', codeHash)
      .executeTakeFirst();
    return row && toCode({ ...row, consumed_at: earliest(row.consumed_at, row.key_revoked_at) });
  }

  /** Marks the code used; false if it was already used (or never existed). */
  async consumeCode(codeHash: string, now = new Date()): Promise<boolean> {
    const res = await this.db
      .updateTable('oauth_codes')
      .set({ consumed_at: now.getTime() })
      .where('code_hash', '=', codeHash)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  /** An access token and, optionally, its refresh token, in one transaction. */
  async insertTokens(access: NewOAuthToken, refresh: NewOAuthToken | undefined): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('oauth_access_tokens').values(toTokenRow(access)).execute();
      if (refresh) await trx.insertInto('oauth_refresh_tokens').values(toTokenRow(refresh)).execute();
    });
  }

  findAccessToken(tokenHash: string): Promise<OAuthTokenRecord | undefined> {
    return this.#findToken('oauth_access_tokens', tokenHash);
  }

  findRefreshToken(tokenHash: string): Promise<OAuthTokenRecord | undefined> {
    return this.#findToken('oauth_refresh_tokens', tokenHash);
  }

  /** Revokes one refresh token; false if it was already revoked (or never existed). */
  async revokeRefreshToken(tokenHash: string, now = new Date()): Promise<boolean> {
    const res = await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ revoked_at: now.getTime() })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  /**
   * Refresh token rotation in one transaction: revokes the presented refresh token and stores its
   * successors, or does neither. False when the old token was already revoked (a concurrent use of
   * the same token won): nothing is written then.
   */
  async rotateRefreshToken(oldTokenHash: string, access: NewOAuthToken, refresh: NewOAuthToken, now = new Date()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('oauth_refresh_tokens')
        .set({ revoked_at: now.getTime() })
        .where('token_hash', '=', oldTokenHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (res.numUpdatedRows === 0n) return false;
      await trx.insertInto('oauth_access_tokens').values(toTokenRow(access)).execute();
      await trx.insertInto('oauth_refresh_tokens').values(toTokenRow(refresh)).execute();
      return true;
    });
  }

  /** Revokes every token of a grant and consumes its code (revocation, replay detection). */
  async revokeGrant(grantId: string, now = new Date()): Promise<void> {
    const at = now.getTime();
    await this.db.transaction().execute(async (trx) => {
      for (const table of ['oauth_access_tokens', 'oauth_refresh_tokens'] as const) {
        await trx.updateTable(table).set({ revoked_at: at }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
      }
      await trx
        .updateTable('oauth_codes')
        .set({ consumed_at: at })
        .where('grant_id', '=', grantId)
        .where('consumed_at', 'is', null)
        .execute();
    });
  }

  /**
   * Deletes codes and tokens that expired more than `graceMs` ago. Until then an expired row still
   * answers "expired" rather than "unknown", and a replayed code is still recognised.
   */
  async purgeExpired(now = new Date(), graceMs = 24 * 3600_000): Promise<void> {
    const before = now.getTime() - graceMs;
    await this.db.deleteFrom('oauth_codes').where('expires_at', '<', before).execute();
    await this.db.deleteFrom('oauth_access_tokens').where('expires_at', '<', before).execute();
    await this.db.deleteFrom('oauth_refresh_tokens').where('expires_at', '<', before).execute();
  }

  /**
   * A token authorised by an API key (the operator path) is revoked from the moment the key is
   * (docs/decisions.md "Enterprise JWT and OAuth 2.0"): read here, in the same query, so no token issued while the key
   * was being revoked slips through, on SQLite and PostgreSQL alike.
   */
  async #findToken(table: TokenTable, tokenHash: string): Promise<OAuthTokenRecord | undefined> {
    const row = await this.db
      .selectFrom(`${table} as t`)
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .leftJoin('api_keys as k', 'k.id', 't.api_key_id')
      .selectAll('t')
      .select(['a.plan as account_plan', 'k.revoked_at as key_revoked_at'])
      .where('t.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      clientId: row.client_id,
      accountId: row.account_id,
      accountPlan: (PLANS as readonly string[]).includes(row.account_plan) ? (row.account_plan as Plan) : undefined,
      grantId: row.grant_id,
      consentId: row.consent_id,
      apiKeyId: row.api_key_id,
      scope: splitScope(row.scope),
      issuedAt: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
      revokedAt: toNullableDate(earliest(row.revoked_at, row.key_revoked_at)),
    };
  }
}

function toCode(row: Selectable<OAuthCodesTable>): OAuthCodeRecord {
  return {
    clientId: row.client_id,
    accountId: row.account_id,
    grantId: row.grant_id,
    consentId: row.consent_id,
    apiKeyId: row.api_key_id,
    redirectUri: row.redirect_uri,
    scope: splitScope(row.scope),
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method,
    expiresAt: toDate(row.expires_at),
    consumedAt: toNullableDate(row.consumed_at),
  };
}

function toTokenRow(token: NewOAuthToken): Selectable<OAuthTokensTable> {
  return {
    token_hash: token.tokenHash,
    client_id: token.clientId,
    account_id: token.accountId,
    grant_id: token.grantId,
    consent_id: token.consentId ?? null,
    api_key_id: token.apiKeyId ?? null,
    scope: token.scope.join(' '),
    created_at: Date.now(),
    expires_at: token.expiresAt.getTime(),
    revoked_at: null,
  };
}

/** The earlier of two optional instants (epoch ms), as the moment a row stopped being usable. */
function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}
