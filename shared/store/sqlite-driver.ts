/**
 * The SQLite driver under Kysely: Node's built-in `node:sqlite` on Node 24 and later, better-sqlite3
 * before (docs/decisions.md). better-sqlite3 12 derives its statements from `node::ObjectWrap`,
 * whose destructor aborts the process on Node 24 when a statement is garbage-collected outside a
 * JavaScript context (WiseLibs/better-sqlite3#1515); its fixed major (13) needs Node 22. Both drivers
 * speak to the same file format and take the same SQL, so everything above this file is unchanged.
 */
import { createRequire } from 'node:module';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** What the store needs of a driver: Kysely's interface, plus statements without results. */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): void;
  readonly driver: 'node:sqlite' | 'better-sqlite3';
}

/** Is this SQLite's "database is locked" (another connection holds the lock)? */
export function isSqliteBusy(err: unknown): boolean {
  const { code, errcode } = err as { code?: unknown; errcode?: unknown };
  // better-sqlite3 names the result code; node:sqlite gives its number (SQLITE_BUSY = 5).
  return code === 'SQLITE_BUSY' || errcode === 5;
}

const NODE_SQLITE_FROM_MAJOR = 24;

type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

// The part of node:sqlite used here; @types/node 20 (the oldest supported runtime) does not declare it.
interface StatementSync {
  columns(): unknown[];
  all(...values: SqliteValue[]): unknown[];
  run(...values: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...values: SqliteValue[]): IterableIterator<unknown>;
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (file: string) => DatabaseSync;
}

function nodeMajor(): number {
  return Number(process.versions.node.split('.')[0]);
}

/** Opens `file` with the driver this runtime should use. */
export function openSqliteConnection(file: string): SqliteConnection {
  if (nodeMajor() >= NODE_SQLITE_FROM_MAJOR) return openNodeSqlite(file);
  return openBetterSqlite(file);
}

function openNodeSqlite(file: string): SqliteConnection {
  const sqlite = process.getBuiltinModule('node:sqlite') as NodeSqliteModule;
  const database = new sqlite.DatabaseSync(file);
  return {
    driver: 'node:sqlite',
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare: (sql) => adaptStatement(database.prepare(sql)),
  };
}

type Parameters = ReadonlyArray<unknown>;

/** Kysely passes parameters as one array; node:sqlite takes them as arguments. */
function adaptStatement(statement: StatementSync): SqliteStatement {
  const values = (parameters: Parameters): SqliteValue[] => parameters as SqliteValue[];
  return {
    // A statement that yields columns returns rows (SELECT, or anything with RETURNING).
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...values(parameters)),
    run: (parameters) => statement.run(...values(parameters)),
    iterate: (parameters) => statement.iterate(...values(parameters)),
  };
}

interface BetterSqliteDatabase extends SqliteDatabase {
  exec(sql: string): unknown;
}

function openBetterSqlite(file: string): SqliteConnection {
  // Loaded on demand: processes that never open SQLite (workers, Node 24) never load the addon.
  const require = createRequire(import.meta.url);
  const Database = require('better-sqlite3') as new (file: string) => BetterSqliteDatabase;
  const database = new Database(file);
  return {
    driver: 'better-sqlite3',
    exec: (sql) => {
      database.exec(sql);
    },
    close: () => database.close(),
    prepare: (sql) => database.prepare(sql),
  };
}
