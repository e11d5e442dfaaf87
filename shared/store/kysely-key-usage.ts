/**
 * Per-credential, per-generation daily request counts (usage_key_daily) beside the account totals
 * of usage_daily, over Kysely. Written by the limiter's usage buffer in the same flush as the
 * totals (shared/limits/usage-buffer.ts); read by the dashboard's usage page.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { KeyUsageEntry, KeyUsageStore, UsageGeneration, UsageScope } from './types.js';
import { assertDay, assertKeyUsageEntry, assertScope, upsertKeyUsage } from './usage-rows.js';

export class KyselyKeyUsageStore implements KeyUsageStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: KeyUsageEntry): Promise<void> {
    assertKeyUsageEntry(entry);
    // One statement, as the usage flush: concurrent adds from several nodes add up, none is lost.
    if (entry.count > 0) await upsertKeyUsage(this.db, [entry]);
  }

  async listByCredential(accountId: string, scope: UsageScope, fromDay: string, toDay: string): Promise<KeyUsageEntry[]> {
    assertRange(scope, fromDay, toDay);
    const rows = await this.db
      .selectFrom('usage_key_daily')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('scope', '=', scope)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .orderBy('credential')
      .orderBy('generation')
      .execute();
    return rows.map((r) => ({
      accountId: r.account_id,
      day: r.day,
      scope: r.scope as UsageScope,
      credential: r.credential,
      generation: r.generation as UsageGeneration,
      count: Number(r.count),
    }));
  }

  async listDaily(accountId: string, scope: UsageScope, fromDay: string, toDay: string): Promise<Array<{ day: string; count: number }>> {
    assertRange(scope, fromDay, toDay);
    const rows = await this.db
      .selectFrom('usage_daily')
      .select(['day', 'count'])
      .where('account_id', '=', accountId)
      .where('scope', '=', scope)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .execute();
    return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
  }
}

function assertRange(scope: string, fromDay: string, toDay: string): void {
  assertScope(scope);
  assertDay(fromDay);
  assertDay(toDay);
}
