/**
 * Per-credential, per-generation daily request counts (usage_key_daily) beside the account totals
 * of usage_daily, over Kysely. Written by the limiter's usage buffer in the same flush as the
 * totals (shared/limits/usage-buffer.ts); read by the dashboard's usage page.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { KeyUsageEntry, KeyUsageStore, UsageGeneration, UsageScope } from './types.js';

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const SCOPES: readonly string[] = ['production', 'sandbox'];
const GENERATIONS: readonly string[] = ['v1a', 'v1b', 'v2', 'ws'];

export class KyselyKeyUsageStore implements KeyUsageStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: KeyUsageEntry): Promise<void> {
    assertDay(entry.day);
    assertScope(entry.scope);
    if (!GENERATIONS.includes(entry.generation)) throw new RangeError(`generation: must be one of ${GENERATIONS.join(', ')}`);
    if (typeof entry.credential !== 'string' || entry.credential === '' || entry.credential.length > 200) {
      throw new RangeError('credential: must be 1 to 200 characters');
    }
    if (!Number.isSafeInteger(entry.count) || entry.count < 0) throw new RangeError('count: must be a non-negative integer');
    if (entry.count === 0) return;
    // One statement, as addUsage: concurrent flushes from several nodes add up, none is lost.
    await this.db
      .insertInto('usage_key_daily')
      .values({
        account_id: entry.accountId,
        day: entry.day,
        scope: entry.scope,
        credential: entry.credential,
        generation: entry.generation,
        count: entry.count,
      })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'day', 'scope', 'credential', 'generation'])
          .doUpdateSet((eb) => ({ count: eb('usage_key_daily.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
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

function assertDay(day: string): void {
  if (!DAY_RE.test(day)) throw new RangeError("day: must be 'YYYY-MM-DD'");
}

function assertScope(scope: string): void {
  if (!SCOPES.includes(scope)) throw new RangeError(`scope: must be one of ${SCOPES.join(', ')}`);
}

function assertRange(scope: string, fromDay: string, toDay: string): void {
  assertScope(scope);
  assertDay(fromDay);
  assertDay(toDay);
}
