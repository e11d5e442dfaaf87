/**
 * OAuth applications as the dashboard manages them, and people's consents (grants), over Kysely.
 * The protocol's own rows (codes, tokens) are the OAuth server's; this file touches them only to
 * revoke what descends from an ended consent (consent-tokens.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { endConsents } from './consent-tokens.js';
import type { OAuthAppRecord, OAuthAppStore, OAuthGrantRecord, OAuthGrantStore } from './dashboard-types.js';
import { newOAuthClientRow, splitScope, toDate, toNullableDate, toOAuthClient } from './rows.js';
import type { Database } from './schema.js';

export class KyselyOAuthAppStore implements OAuthAppStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: {
    id: string;
    accountId: string;
    name: string;
    redirectUris: string[];
    secretHash: string | null;
  }): Promise<OAuthAppRecord> {
    const row = newOAuthClientRow(input, Date.now());
    await this.db.insertInto('oauth_clients').values(row).execute();
    return toOAuthClient(row);
  }

  async get(clientId: string): Promise<OAuthAppRecord | undefined> {
    const row = await this.db.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirst();
    return row && toOAuthClient(row);
  }

  async list(accountId: string): Promise<OAuthAppRecord[]> {
    const rows = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toOAuthClient);
  }

  async update(clientId: string, changes: { name?: string; redirectUris?: string[] }): Promise<OAuthAppRecord | undefined> {
    const set: { name?: string; redirect_uris?: string } = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.redirectUris !== undefined) set.redirect_uris = JSON.stringify(changes.redirectUris);
    if (Object.keys(set).length > 0) await this.db.updateTable('oauth_clients').set(set).where('id', '=', clientId).execute();
    return this.get(clientId);
  }

  async setSecretHash(clientId: string, secretHash: string): Promise<boolean> {
    // A public client has no secret and gains none: its type is fixed at registration.
    const res = await this.db
      .updateTable('oauth_clients')
      .set({ secret_hash: secretHash })
      .where('id', '=', clientId)
      .where('secret_hash', 'is not', null)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  async delete(clientId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('oauth_clients').where('id', '=', clientId).executeTakeFirst();
    return res.numDeletedRows > 0n;
  }
}

export class KyselyOAuthGrantStore implements OAuthGrantStore {
  constructor(private readonly db: Kysely<Database>) {}

  async upsert(input: {
    accountId: string;
    clientId: string;
    userId: string;
    scope: readonly string[];
    now: Date;
  }): Promise<OAuthGrantRecord> {
    const wanted = [...new Set(input.scope)];
    await this.db
      .insertInto('oauth_grants')
      .values({
        id: `ogr_${randomUUID()}`,
        account_id: input.accountId,
        client_id: input.clientId,
        user_id: input.userId,
        scope: wanted.sort().join(' '),
        created_at: input.now.getTime(),
        last_used_at: null,
      })
      .onConflict((oc) => oc.columns(['account_id', 'client_id', 'user_id']).doNothing())
      .execute();
    // Widen an existing consent by compare-and-set on its scope: two approvals racing both land,
    // with no row lock (which SQLite lacks) and no lost scope.
    for (;;) {
      const found = await this.find(input.accountId, input.clientId, input.userId);
      if (!found) throw new Error('oauth grant vanished while being recorded');
      if (wanted.every((s) => found.scope.includes(s))) return found;
      const before = found.scope.join(' ');
      const after = [...new Set([...found.scope, ...wanted])].sort().join(' ');
      await this.db.updateTable('oauth_grants').set({ scope: after }).where('id', '=', found.id).where('scope', '=', before).execute();
    }
  }

  async get(id: string): Promise<OAuthGrantRecord | undefined> {
    const row = await this.#select().where('g.id', '=', id).executeTakeFirst();
    return row && toGrant(row);
  }

  async find(accountId: string, clientId: string, userId: string): Promise<OAuthGrantRecord | undefined> {
    const row = await this.#select()
      .where('g.account_id', '=', accountId)
      .where('g.client_id', '=', clientId)
      .where('g.user_id', '=', userId)
      .executeTakeFirst();
    return row && toGrant(row);
  }

  async list(accountId: string): Promise<OAuthGrantRecord[]> {
    const rows = await this.#select().where('g.account_id', '=', accountId).orderBy('g.created_at').orderBy('g.id').execute();
    return rows.map(toGrant);
  }

  async touch(id: string, at: Date): Promise<void> {
    const ms = at.getTime();
    await this.db
      .updateTable('oauth_grants')
      .set({ last_used_at: ms })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', ms)]))
      .execute();
  }

  async revoke(id: string): Promise<boolean> {
    return (await this.db.transaction().execute((trx) => endConsents(trx, { consentId: id }))) > 0;
  }

  revokeByUser(accountId: string, userId: string): Promise<number> {
    return this.db.transaction().execute((trx) => endConsents(trx, { accountId, userId }));
  }

  #select() {
    return this.db
      .selectFrom('oauth_grants as g')
      .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .selectAll('g')
      .select(['c.name as client_name', 'u.email as user_email']);
  }
}

type GrantRow = Selectable<Database['oauth_grants']> & { client_name: string; user_email: string };

function toGrant(row: GrantRow): OAuthGrantRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    clientId: row.client_id,
    clientName: row.client_name,
    userId: row.user_id,
    userEmail: row.user_email,
    scope: splitScope(row.scope),
    createdAt: toDate(row.created_at),
    lastUsedAt: toNullableDate(row.last_used_at),
  };
}
