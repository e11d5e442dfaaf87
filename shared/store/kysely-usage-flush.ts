/**
 * One usage flush applied exactly once (docs/decisions.md "Plans, rate limits and quotas"): the
 * flush's id is recorded in the same transaction as its counts, and a flush whose id is already
 * there is skipped. A node whose COMMIT succeeded but whose answer was lost (a database that went
 * silent, a connection reset) sends the same flush again, and the customer is not billed twice.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { KeyUsageEntry, UsageFlush } from './types.js';
import { assertKeyUsageEntry, assertUsageRow, chunks, upsertKeyUsage } from './usage-rows.js';

/** Applied flush ids are kept this long: a node retries a flush every flush interval, not a day later. */
export const USAGE_FLUSH_ID_RETENTION_MS = 24 * 3600 * 1000;
/** How often one process prunes applied flush ids older than the retention. */
const PRUNE_EVERY_MS = 3600 * 1000;

type Total = UsageFlush['totals'][number];

export class KyselyUsageFlushes {
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves once the flush is applied, now or by an earlier call with the same id. */
  async apply(flush: UsageFlush): Promise<void> {
    assertFlush(flush);
    const totals = flush.totals.filter((t) => t.count > 0).sort(byRow);
    const byKey = flush.byKey.filter((e) => e.count > 0).sort(byKeyRow);
    if (totals.length === 0 && byKey.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      const recorded = await trx
        .insertInto('usage_flushes')
        .values({ id: flush.id, applied_at: this.now() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (recorded.numInsertedOrUpdatedRows === 0n) return; // applied before: its answer was lost
      // An account deleted since its requests were served has nobody to bill: its counts are dropped
      // (inserting them would fail the foreign key, and the flush would never go through).
      const live = await existingAccounts(trx, [...new Set([...totals, ...byKey].map((t) => t.accountId))]);
      await addTotals(
        trx,
        totals.filter((t) => live.has(t.accountId)),
      );
      await upsertKeyUsage(
        trx,
        byKey.filter((e) => live.has(e.accountId)),
      );
    });
    await this.pruneNowAndThen();
  }

  /** Deletes applied flush ids older than the retention; returns how many. */
  async prune(): Promise<number> {
    const res = await this.db
      .deleteFrom('usage_flushes')
      .where('applied_at', '<', this.now() - USAGE_FLUSH_ID_RETENTION_MS)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  // Outside the flush's transaction, at most hourly: nodes pruning the same rows inside their
  // flushes would wait on each other's row locks. A failed prune is retried at the next flush.
  private async pruneNowAndThen(): Promise<void> {
    if (this.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = this.now();
    await this.prune().catch(() => undefined);
  }
}

async function existingAccounts(trx: Transaction<Database>, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks(ids)) {
    const rows = await trx.selectFrom('accounts').select('id').where('id', 'in', chunk).execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

// Rows are written in one order on every node (sorted above), so two nodes' flushes never wait on
// each other's row locks in opposite orders (a deadlock on PostgreSQL).
async function addTotals(trx: Transaction<Database>, totals: Total[]): Promise<void> {
  for (const chunk of chunks(totals)) {
    await trx
      .insertInto('usage_daily')
      .values(chunk.map((t) => ({ account_id: t.accountId, day: t.day, scope: t.scope, count: t.count })))
      .onConflict((oc) =>
        oc.columns(['account_id', 'day', 'scope']).doUpdateSet((eb) => ({ count: eb('usage_daily.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }
}

function byRow(a: Total, b: Total): number {
  return compare(a.accountId, b.accountId) || compare(a.day, b.day) || compare(a.scope, b.scope);
}

function byKeyRow(a: KeyUsageEntry, b: KeyUsageEntry): number {
  return byRow(a, b) || compare(a.credential, b.credential) || compare(a.generation, b.generation);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Refused before the transaction (RangeError): nothing of an invalid flush is applied. */
function assertFlush(flush: UsageFlush): void {
  if (typeof flush.id !== 'string' || flush.id === '' || flush.id.length > 100) throw new RangeError('id: must be 1 to 100 characters');
  const seen = new Set<string>();
  for (const t of flush.totals) {
    assertUsageRow(t.day, t.scope, t.count);
    const key = `${t.accountId}\n${t.day}\n${t.scope}`;
    if (seen.has(key)) throw new RangeError('totals: one entry per account, day and scope');
    seen.add(key);
  }
  seen.clear();
  for (const e of flush.byKey) {
    assertKeyUsageEntry(e);
    const key = `${e.accountId}\n${e.day}\n${e.scope}\n${e.credential}\n${e.generation}`;
    if (seen.has(key)) throw new RangeError('byKey: one entry per account, day, scope, credential and generation');
    seen.add(key);
  }
}
