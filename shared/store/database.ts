/**
 * Opens the one Kysely instance over PostgreSQL (DATABASE_URL=postgres://… or postgresql://…) or,
 * otherwise, SQLite at a file path (the driver is chosen in sqlite-driver.ts). Everything above this file is
 * engine-agnostic; the only engine test elsewhere is `isPostgres` (migrations take an advisory lock).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { DEFAULT_PG_BOUNDS, type PgBounds } from './pg-bounds.js';
import { createBoundedPgPool } from './pg-pool.js';
import type { Database } from './schema.js';
import { isSqliteBusy, openSqliteConnection, type SqliteConnection } from './sqlite-driver.js';

export interface OpenDatabaseOptions {
  /** postgres://… or postgresql://… selects PostgreSQL; anything else (or unset) selects SQLite. */
  databaseUrl?: string;
  /** SQLite file used when `databaseUrl` is not a PostgreSQL URL; ':memory:' for a private in-memory DB. */
  sqlitePath: string;
  /** PostgreSQL only: how long connecting, a statement and an idle transaction may take (default DEFAULT_PG_BOUNDS). */
  pgBounds?: PgBounds;
}

/** PostgreSQL pool size per process; the API, workers and the CLI each open their own pool. */
const PG_POOL_MAX = 10;
/** How long a SQLite writer waits for another connection's write lock before SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** The SQLite file of embedded mode, inside DATA_DIR. */
export const SQLITE_FILE_NAME = 'sha224d.sqlite';

/** DATABASE_URL when set, else DATA_DIR/sha224d.sqlite: the one place that rule is written. */
export function databaseOptionsFromConfig(
  config: Pick<
    Config,
    | 'DATABASE_URL'
    | 'dataDir'
    | 'PG_CONNECT_TIMEOUT_MS'
    | 'PG_STATEMENT_TIMEOUT_MS'
    | 'PG_QUERY_TIMEOUT_MS'
    | 'PG_IDLE_IN_TRANSACTION_TIMEOUT_MS'
  >,
): OpenDatabaseOptions {
  return {
    databaseUrl: config.DATABASE_URL,
    sqlitePath: path.join(config.dataDir, SQLITE_FILE_NAME),
    pgBounds: {
      connectTimeoutMs: config.PG_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.PG_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: config.PG_QUERY_TIMEOUT_MS,
      idleInTransactionTimeoutMs: config.PG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
  };
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(?:ql)?:\/\//i.test(url);
}

export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function openDatabase(options: OpenDatabaseOptions): Kysely<Database> {
  if (isPostgresUrl(options.databaseUrl)) return openPostgres(options.databaseUrl, options.pgBounds ?? DEFAULT_PG_BOUNDS);
  // Fail loudly rather than fall back to SQLite when a URL of another engine was meant.
  if (options.databaseUrl) {
    throw new RangeError('databaseUrl: must start with postgres:// or postgresql:// (unset it to use SQLite)');
  }
  if (typeof options.sqlitePath !== 'string' || options.sqlitePath === '') {
    throw new TypeError('openDatabase: sqlitePath must be a non-empty string');
  }
  return openSqlite(options.sqlitePath);
}

function openPostgres(databaseUrl: string, bounds: PgBounds): Kysely<Database> {
  const { pool, raw } = createBoundedPgPool({
    connectionString: withExplicitUser(databaseUrl),
    max: PG_POOL_MAX,
    bounds,
    types: { getTypeParser: pgTypeParser },
  });
  // An idle client that loses its connection (server restart) emits 'error' on the pool; without a
  // listener that would crash the process. pg-pool drops that client; the next query gets a fresh one.
  raw.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Without a user in the URL, pg falls back to $PGUSER/$USER (often `root` in containers), failing
 * with a confusing "role does not exist"; name the conventional superuser explicitly instead. It is
 * set as the `user` query parameter because pg lets connection-string fields override a `user`
 * option, and a socket URL (postgres:///db?host=/run/postgresql) has no authority to put it in.
 */
function withExplicitUser(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.username !== '' || url.searchParams.has('user')) return databaseUrl;
  url.searchParams.set('user', 'postgres');
  return url.toString();
}

// Per-pool parsers, not pg.types.setTypeParser: a process-wide change would alter every other pg
// user in the process. int8 → number is exact for epoch milliseconds and our counters (< 2^53).
const pgTypeParser: pg.CustomTypesConfig['getTypeParser'] = (oid, format) =>
  oid === pg.types.builtins.INT8 && format !== 'binary'
    ? (value: string) => Number(value)
    : (pg.types.getTypeParser(oid, format) as (value: string) => unknown);

/**
 * Switch to WAL. SQLite does not always call the busy handler for a journal-mode change, so
 * processes opening a fresh file at the same moment can get SQLITE_BUSY despite busy_timeout
 * (seen with four at once): retry for up to the busy timeout. Blocking is fine: this runs once at
 * startup, before the process serves anything.
 */
function enableWal(database: SqliteConnection): void {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      database.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if (!isSqliteBusy(err) || Date.now() > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.floor(Math.random() * 40));
    }
  }
}

function openSqlite(file: string): Kysely<Database> {
  if (file !== ':memory:') {
    // Accounts and key hashes: the directory and the file (whose mode SQLite gives its -wal and
    // -shm files) are this service's user's alone when this process creates them.
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(file, 'a', 0o600));
  }
  const database = openSqliteConnection(file);
  // WAL lets readers (API nodes, the admin CLI) run while one writer writes; busy_timeout makes a
  // second process wait for the write lock instead of failing at once.
  // busy_timeout first: switching a new file to WAL needs a lock that another starting process may hold.
  database.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  enableWal(database);
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}
