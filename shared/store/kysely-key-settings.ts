/**
 * Key settings the dashboard edits after creation (description, allowed domains, IP allow-lists),
 * key rolling, and the account-wide IP allow-list, over Kysely. Validation is the caller's
 * (api/management); this file only stores.
 */
import type { Kysely } from 'kysely';
import { newKeyRow, toKey } from './rows.js';
import type { ApiKeyRecord, KeyChanges, KeySettingsStore, NewApiKey } from './types.js';
import type { Database } from './schema.js';

export class KyselyKeySettingsStore implements KeySettingsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async updateKey(id: string, changes: KeyChanges): Promise<ApiKeyRecord | undefined> {
    const set: { description?: string; allowed_domains?: string; allowed_ips?: string } = {};
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.allowedDomains !== undefined) set.allowed_domains = JSON.stringify(changes.allowedDomains);
    if (changes.allowedIps !== undefined) set.allowed_ips = JSON.stringify(changes.allowedIps);
    if (Object.keys(set).length > 0) await this.db.updateTable('api_keys').set(set).where('id', '=', id).execute();
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toKey(row);
  }

  async rollKey(
    oldId: string,
    replacement: NewApiKey & { id: string; prefix: string; keyHash: string },
    graceEndsAt: Date,
    now: Date,
  ): Promise<{ old: ApiKeyRecord; replacement: ApiKeyRecord } | undefined> {
    const nowMs = now.getTime();
    const graceMs = graceEndsAt.getTime();
    return this.db.transaction().execute(async (trx) => {
      const newRow = newKeyRow(replacement, nowMs);
      // The conditional UPDATE is the one-winner step: a revoked, expired or already rolled key
      // matches nothing, and two rolls racing on one key see one success.
      const res = await trx
        .updateTable('api_keys')
        .set((eb) => ({
          replaced_by: newRow.id,
          expires_at: eb
            .case()
            .when('expires_at', 'is', null)
            .then(graceMs)
            .when('expires_at', '>', graceMs)
            .then(graceMs)
            .else(eb.ref('expires_at'))
            .end(),
        }))
        .where('id', '=', oldId)
        .where('revoked_at', 'is', null)
        .where('replaced_by', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowMs)]))
        .executeTakeFirst();
      if (res.numUpdatedRows === 0n) return undefined;
      await trx.insertInto('api_keys').values(newRow).execute();
      const old = await trx.selectFrom('api_keys').selectAll().where('id', '=', oldId).executeTakeFirstOrThrow();
      return { old: toKey(old), replacement: toKey(newRow) };
    });
  }

  async setAccountAllowedIps(accountId: string, allowedIps: string[]): Promise<boolean> {
    const res = await this.db
      .updateTable('accounts')
      .set({ allowed_ips: JSON.stringify(allowedIps) })
      .where('id', '=', accountId)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }
}
