/**
 * Opens the one Kysely instance over PostgreSQL (DATABASE_URL=postgres://… or postgresql://…; the
 * pool is built in postgres-database.ts) or, otherwise, SQLite at a file path (the driver is chosen
 * in sqlite-driver.ts). Everything above this file is engine-agnostic; the only engine test
 * elsewhere is `isPostgres` (migrations take an advisory lock).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresAdapter, SqliteDialect } from 'kysely';
import type { Config } from '../config.js';
import { DEFAULT_PG_BOUNDS, type PgBounds } from './pg-bounds.js';
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
    | 'PG_REQUEST_TIMEOUT_MS'
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
      requestTimeoutMs: config.PG_REQUEST_TIMEOUT_MS,
    },
  };
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(?:ql)?:\/\//i.test(url);
}

/** The connection under each SQLite Kysely instance opened here (sqliteConnectionOf). */
const sqliteConnections = new WeakMap<Kysely<Database>, SqliteConnection>();

/**
 * The SQLite connection under `db`, for statements prepared once and run many times (Kysely
 * prepares every query anew); undefined on PostgreSQL. Use it only inside `db.connection()` or a
 * transaction of `db`: Kysely's one SQLite connection is shared, and those hold it.
 */
export function sqliteConnectionOf(db: Kysely<Database>): SqliteConnection | undefined {
  return sqliteConnections.get(db);
}

export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Async because PostgreSQL's driver is imported only when a PostgreSQL URL asks for it (postgres-database.ts). */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Kysely<Database>> {
  if (isPostgresUrl(options.databaseUrl)) {
    const { openPostgres } = await import('./postgres-database.js');
    return openPostgres(options.databaseUrl, options.pgBounds ?? DEFAULT_PG_BOUNDS);
  }
  // Fail loudly rather than fall back to SQLite when a URL of another engine was meant.
  if (options.databaseUrl) {
    throw new RangeError('databaseUrl: must start with postgres:// or postgresql:// (unset it to use SQLite)');
  }
  if (typeof options.sqlitePath !== 'string' || options.sqlitePath === '') {
    throw new TypeError('openDatabase: sqlitePath must be a non-empty string');
  }
  return openSqlite(options.sqlitePath);
}

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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  sqliteConnections.set(db, database);
  return db;
}
