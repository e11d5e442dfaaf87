/**
 * The cluster-wide first-start lock: of API nodes starting together on one database, only the one
 * holding it bootstraps the admin account (shared/accounts/first-start.ts), and a node that takes
 * it later finds the account there and prints nothing (docs/decisions.md "Keys and authentication").
 */
import { setTimeout } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from './database.js';
import { ADVISORY_LOCK_CLASS } from './migrations.js';
import type { Database } from './schema.js';

/** How long a starting node waits for another's first start, and how often it looks. */
const FIRST_START_LOCK_WAIT_MS = 60_000;
const FIRST_START_LOCK_POLL_MS = 50;

/**
 * Runs `work` holding the lock. PostgreSQL: a session advisory lock keyed by the schema, taken and
 * released on one pooled connection while `work` runs on the others; tried repeatedly, because
 * every statement is bounded (PG_STATEMENT_TIMEOUT_MS). SQLite is embedded mode's one process:
 * `work` runs as is.
 */
export async function withFirstStartLock<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work();
  const key = sql`${ADVISORY_LOCK_CLASS}::int, hashtext(current_schema() || ':first-start')`;
  return db.connection().execute(async (conn) => {
    const deadline = Date.now() + FIRST_START_LOCK_WAIT_MS;
    for (;;) {
      const { rows } = await sql<{ taken: boolean }>`select pg_try_advisory_lock(${key}) as taken`.execute(conn);
      if (rows[0]?.taken === true) break;
      if (Date.now() > deadline)
        throw new Error(`First start: another node held the first-start lock for over ${FIRST_START_LOCK_WAIT_MS} ms`);
      await setTimeout(FIRST_START_LOCK_POLL_MS);
    }
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}
