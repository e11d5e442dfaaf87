/**
 * The rows of usage_daily and usage_key_daily: what a valid one is, and how key rows are added
 * (one upsert per chunk, so concurrent flushes from several nodes add up and none is lost). Shared
 * by the usage flush (kysely-usage-flush.ts) and the per-key store (kysely-key-usage.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { KeyUsageEntry } from './types.js';

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 500;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const SCOPES: readonly string[] = ['production', 'sandbox'];
const GENERATIONS: readonly string[] = ['v1a', 'v1b', 'v2', 'ws'];

export function assertDay(day: string): void {
  if (!DAY_RE.test(day)) throw new RangeError("day: must be 'YYYY-MM-DD'");
}

export function assertScope(scope: string): void {
  if (!SCOPES.includes(scope)) throw new RangeError(`scope: must be one of ${SCOPES.join(', ')}`);
}

/** A day total: its day, scope and a non-negative count. */
export function assertUsageRow(day: string, scope: string, count: number): void {
  assertDay(day);
  assertScope(scope);
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count: must be a non-negative integer');
}

/** A per-credential count: a day total's checks, plus its generation and credential. */
export function assertKeyUsageEntry(entry: KeyUsageEntry): void {
  assertUsageRow(entry.day, entry.scope, entry.count);
  if (!GENERATIONS.includes(entry.generation)) throw new RangeError(`generation: must be one of ${GENERATIONS.join(', ')}`);
  if (typeof entry.credential !== 'string' || entry.credential === '' || entry.credential.length > 200) {
    throw new RangeError('credential: must be 1 to 200 characters');
  }
}

/** Adds each entry's count to its row (created at 0); in the caller's transaction when given one. */
export async function upsertKeyUsage(db: Kysely<Database>, entries: KeyUsageEntry[]): Promise<void> {
  for (const chunk of chunks(entries)) {
    await db
      .insertInto('usage_key_daily')
      .values(
        chunk.map((e) => ({
          account_id: e.accountId,
          day: e.day,
          scope: e.scope,
          credential: e.credential,
          generation: e.generation,
          count: e.count,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'day', 'scope', 'credential', 'generation'])
          .doUpdateSet((eb) => ({ count: eb('usage_key_daily.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }
}

export function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) out.push(items.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}
