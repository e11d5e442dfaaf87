/**
 * Schema migrations, defined in code (no files to ship or find at run time) and run at start by
 * every process that opens the store. Names sort in the order they apply; never edit a migration
 * that has shipped, only add the next one.
 *
 * Concurrency (several nodes starting at once against one PostgreSQL): Kysely's migrator takes a
 * session `pg_advisory_lock` around the run itself, and its unlocked preamble (creating its own
 * bookkeeping tables) tolerates losing a creation race by re-checking. With that alone, four
 * concurrent migrators on a fresh schema (in one process, and as four processes started together)
 * passed every trial we ran. Two things are still added on PostgreSQL:
 *  1. The bookkeeping tables are pinned to `current_schema()`. Kysely's table-exists check looks at
 *     every schema, so a `kysely_migration` table in another schema made a fresh one fail with
 *     `relation "kysely_migration_lock" does not exist` (reproduced).
 *  2. Our own advisory lock, keyed by that schema, around the whole run, preamble included, so
 *     correctness does not rest on the preamble's re-check.
 * test/store/migrations.test.ts starts four migrations at once on a fresh schema, and four processes
 * at once on a fresh SQLite file.
 */
import { setTimeout } from 'node:timers/promises';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { isPostgres } from './database.js';
import { dashboardAccountsMigration } from './migrations/0003-dashboard-accounts.js';
import { webhooksMigration } from './migrations/0007-webhooks.js';
import type { Database } from './schema.js';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_accounts_keys_usage': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('allowed_domains', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_account_id_idx').on('api_keys').column('account_id').execute();

      await db.schema
        .createTable('usage_daily')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day', 'scope'])
        .execute();
    },
  },
  // OAuth 2.0 clients, authorization codes and tokens (docs/auth.md). Secrets are stored hashed.
  '0002_oauth': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('oauth_clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_clients_account_id_idx').on('oauth_clients').column('account_id').execute();

      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('code_challenge_method', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('consumed_at', 'bigint')
        .execute();
      await db.schema.createIndex('oauth_codes_expires_at_idx').on('oauth_codes').column('expires_at').execute();

      for (const table of ['oauth_access_tokens', 'oauth_refresh_tokens']) {
        await db.schema
          .createTable(table)
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('grant_id', 'text', (c) => c.notNull())
          .addColumn('scope', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('revoked_at', 'bigint')
          .execute();
        await db.schema.createIndex(`${table}_grant_id_idx`).on(table).column('grant_id').execute();
        await db.schema.createIndex(`${table}_expires_at_idx`).on(table).column('expires_at').execute();
      }
    },
  },
  // Users, memberships, sessions, one-time links, sign-in throttling, OAuth consents, per-account
  // JWT keys, IP allow-lists, key rolling and per-key usage (the account dashboard).
  '0003_dashboard_accounts': dashboardAccountsMigration,
  // Ids of applied usage flushes: a flush sent again after its answer was lost is skipped
  // (docs/decisions.md "Plans, rate limits and quotas"); applied_at lets rows older than a day be pruned.
  '0004_usage_flushes': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('usage_flushes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('usage_flushes_applied_at_idx').on('usage_flushes').column('applied_at').execute();
    },
  },
  // The API key whose holder consented on the operator path (docs/auth.md), so revoking the key
  // cuts off the codes and tokens it authorised. Nullable: browser consents have no key.
  '0005_oauth_issuing_key': {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['oauth_codes', 'oauth_access_tokens', 'oauth_refresh_tokens']) {
        await db.schema.alterTable(table).addColumn('api_key_id', 'text').execute();
      }
    },
  },
  // The transparency log of digests (docs/proving.md): its leaves, gap-free by index, and the
  // checkpoints it has published, each larger than the last. Keys are never stored here.
  '0006_transparency_log': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('log_leaves')
        .addColumn('idx', 'bigint', (c) => c.primaryKey())
        .addColumn('leaf', 'text', (c) => c.notNull())
        .addColumn('leaf_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('log_checkpoints')
        .addColumn('size', 'bigint', (c) => c.primaryKey())
        .addColumn('root', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Webhook endpoints (secrets sealed, not hashed: they sign) and deliveries (docs/webhooks.md).
  '0007_webhooks': webhooksMigration,
  // A leaf's idempotency key (docs/proving.md "Logging a job's digest"): an async job's digest is
  // logged when its result is first read, on whichever node, so a second read finds the first leaf.
  // Unique where present; both engines let any number of rows leave it NULL.
  '0008_log_leaf_key': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('log_leaves').addColumn('idempotency_key', 'text').execute();
      await db.schema.createIndex('log_leaves_idempotency_key_idx').on('log_leaves').column('idempotency_key').unique().execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** How long a starting node waits for another's migrations, and how often it looks. */
const MIGRATION_LOCK_WAIT_MS = 120_000;
const MIGRATION_LOCK_POLL_MS = 100;

/** A fixed namespace for our advisory locks (first argument of the two-int form), "s224". */
export const ADVISORY_LOCK_CLASS = 0x73323234;

/** Applies every pending migration; returns the names applied by this call (empty if none). */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  if (!isPostgres(db)) {
    if (await allApplied(db)) return [];
    // SQLite: Kysely takes no lock and no transaction there. BEGIN IMMEDIATE takes the database
    // write lock (waiting up to busy_timeout), so two processes starting on a new file (the server and
    // the admin CLI) migrate one after the other, and a failed migration leaves nothing half-applied.
    return db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const applied = await runMigrator(conn, undefined);
        await sql`commit`.execute(conn);
        return applied;
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw err;
      }
    });
  }

  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('Migration failed: no current schema (does the search_path schema exist?)');

  // A session-level lock lives on one connection: take and release it on the same one.
  return db.connection().execute(async (conn) => {
    await takeMigrationLock(conn, schema);
    try {
      return await runMigrator(conn, schema);
    } finally {
      await sql`select pg_advisory_unlock(${ADVISORY_LOCK_CLASS}::int, hashtext(${schema}))`.execute(conn);
    }
  });
}

/**
 * SQLite: true when the file already has exactly this build's migrations, read in one statement. A
 * restart on an existing data directory then skips Kysely's migrator (its bookkeeping tables'
 * checks, a write lock, a transaction and the comparison), ~10 ms of a cold start's CPU before the
 * first request (docs/decisions.md "Cold start"). A new file, a pending migration or a name this
 * build does not know goes through the migrator, which applies or refuses. Not on PostgreSQL: an
 * unqualified name there may find another schema's table through the search_path.
 */
async function allApplied(db: Kysely<Database>): Promise<boolean> {
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    applied = new Set(rows.map((r) => r.name));
  } catch {
    return false; // no bookkeeping table yet: the migrator creates it
  }
  const wanted = Object.keys(MIGRATIONS);
  return applied.size === wanted.length && wanted.every((name) => applied.has(name));
}

/**
 * Waits for the schema's migration lock by trying it repeatedly rather than blocking in one
 * statement: every statement is bounded (PG_STATEMENT_TIMEOUT_MS, PG_QUERY_TIMEOUT_MS), and a node
 * starting beside others waits for as long as their migrations take, up to MIGRATION_LOCK_WAIT_MS.
 */
async function takeMigrationLock(conn: Kysely<Database>, schema: string): Promise<void> {
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  for (;;) {
    const { rows } = await sql<{
      taken: boolean;
    }>`select pg_try_advisory_lock(${ADVISORY_LOCK_CLASS}::int, hashtext(${schema})) as taken`.execute(conn);
    if (rows[0]?.taken === true) return;
    if (Date.now() > deadline)
      throw new Error(`Migration failed: another process held the migration lock for over ${MIGRATION_LOCK_WAIT_MS} ms`);
    await setTimeout(MIGRATION_LOCK_POLL_MS);
  }
}

async function runMigrator(db: Kysely<Database>, schema: string | undefined): Promise<string[]> {
  // On PostgreSQL Kysely runs all pending migrations in one transaction; on SQLite ours (above) does.
  const migrator = new Migrator({ db, provider, ...(schema === undefined ? {} : { migrationTableSchema: schema }) });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Migration failed${failed ? ` at ${failed}` : ''}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
