/**
 * The two engines every store suite runs against: SQLite in a temp dir, and the machine's
 * PostgreSQL in a fresh schema per test file (selected through search_path, dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { OpenDatabaseOptions } from '../../shared/store/database.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';

export const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Set by test/global-setup.ts for the length of a vitest run. Its PostgreSQL schemas are dropped
 * when the run ends, not as each file ends: starting a store lists every schema's tables (Kysely's
 * migration introspection), and a schema dropped meanwhile by a parallel test file fails that
 * listing with 'schema "t_…" does not exist'.
 */
export const TEST_RUN_ENV = 'SHA224D_TEST_RUN';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  options: OpenDatabaseOptions;
  /** The PostgreSQL schema, for raw queries; undefined on SQLite. */
  schema: string | undefined;
  /** Removes the database; inside a vitest run a PostgreSQL schema is left to the run's end (TEST_RUN_ENV). */
  cleanup(): Promise<void>;
}

export type EngineName = TestDatabase['name'];
export const ENGINES: EngineName[] = ['sqlite', 'postgres'];

export async function createTestDatabase(name: EngineName): Promise<TestDatabase> {
  if (name === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-store-'));
    return {
      name,
      schema: undefined,
      options: { sqlitePath: path.join(dir, 'test.sqlite') },
      cleanup: () => fs.promises.rm(dir, { recursive: true, force: true }),
    };
  }
  const run = process.env[TEST_RUN_ENV];
  const schema = run === undefined ? `t_${randomBytes(6).toString('hex')}` : `${runSchemaPrefix(run)}${randomBytes(6).toString('hex')}`;
  await withPgClient((c) => c.query(`create schema ${schema}`));
  return {
    name,
    schema,
    options: { databaseUrl: pgUrlForSchema(schema), sqlitePath: '/nonexistent/unused.sqlite' },
    cleanup: run === undefined ? () => dropSchema(schema) : () => Promise.resolve(),
  };
}

function runSchemaPrefix(run: string): string {
  if (!/^[0-9a-f]{8}$/.test(run)) throw new RangeError(`${TEST_RUN_ENV} must be 8 hex digits`);
  return `t_${run}_`;
}

async function dropSchema(schema: string): Promise<void> {
  await withPgClient((c) => c.query(`drop schema if exists ${schema} cascade`));
}

/** Drops every schema the run `run` created (test/global-setup.ts, once all files have finished). */
export async function dropRunSchemas(run: string): Promise<number> {
  const prefix = runSchemaPrefix(run);
  const { rows } = await withPgClient((c) =>
    c.query<{ nspname: string }>(`select nspname from pg_namespace where starts_with(nspname, $1)`, [prefix]),
  );
  for (const { nspname } of rows) await dropSchema(nspname);
  return rows.length;
}

export function pgUrlForSchema(schema: string): string {
  return `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function withPgClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A store on one engine for the enclosing describe block; read its parts inside hooks and tests. */
export interface EngineStore {
  readonly store: KyselyAccountStore;
  readonly testDatabase: TestDatabase;
}

/** Opens a store on `engine` before the enclosing block's tests; closes it and removes its database after them. */
export function storeOnEngine(engine: EngineName): EngineStore {
  let testDatabase: TestDatabase | undefined;
  let store: KyselyAccountStore | undefined;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(engine);
    store = await createStore(testDatabase.options);
  });
  afterAll(async () => {
    await store?.close();
    await testDatabase?.cleanup();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the store is opened in beforeAll: read it inside hooks and tests');
    return value;
  };
  return {
    get store() {
      return opened(store);
    },
    get testDatabase() {
      return opened(testDatabase);
    },
  };
}
