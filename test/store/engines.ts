/**
 * The two engines every store suite runs against: SQLite in a temp dir, and the machine's
 * PostgreSQL in a fresh schema per test file (selected through search_path, dropped afterwards).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { OpenDatabaseOptions } from '../../shared/store/database.js';

export const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  options: OpenDatabaseOptions;
  /** The PostgreSQL schema, for raw queries; undefined on SQLite. */
  schema: string | undefined;
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
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withPgClient((c) => c.query(`create schema ${schema}`));
  return {
    name,
    schema,
    options: { databaseUrl: pgUrlForSchema(schema), sqlitePath: '/nonexistent/unused.sqlite' },
    cleanup: () => withPgClient((c) => c.query(`drop schema if exists ${schema} cascade`)).then(() => undefined),
  };
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
