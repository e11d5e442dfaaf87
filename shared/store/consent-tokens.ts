/**
 * Ending a person's OAuth consent: every authorization code and token issued under it stops
 * working at once. Shared by the grant store (revoke one consent) and the user store (a member
 * removed or demoted, a person deleted), which must do it inside their own transaction.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';

export interface ConsentFilter {
  consentId?: string;
  accountId?: string;
  userId?: string;
}

/** Revokes the codes and tokens of the consents `filter` selects, deletes those consents, returns how many. */
export async function endConsents(trx: Transaction<Database> | Kysely<Database>, filter: ConsentFilter, now = Date.now()): Promise<number> {
  let query = trx.selectFrom('oauth_grants').select('id');
  if (filter.consentId !== undefined) query = query.where('id', '=', filter.consentId);
  if (filter.accountId !== undefined) query = query.where('account_id', '=', filter.accountId);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  const ids = (await query.execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  for (const table of ['oauth_access_tokens', 'oauth_refresh_tokens'] as const) {
    await trx.updateTable(table).set({ revoked_at: now }).where(sql.ref('consent_id'), 'in', ids).where('revoked_at', 'is', null).execute();
  }
  await trx
    .updateTable('oauth_codes')
    .set({ consumed_at: now })
    .where(sql.ref('consent_id'), 'in', ids)
    .where('consumed_at', 'is', null)
    .execute();
  await trx.deleteFrom('oauth_grants').where('id', 'in', ids).execute();
  return ids.length;
}
