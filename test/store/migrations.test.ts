import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../shared/store/database.js';
import { MIGRATIONS, migrateToLatest } from '../../shared/store/migrations.js';
import { createTestDatabase, pgUrlForSchema, type TestDatabase, withPgClient } from './engines.js';
import { stallFor } from '../helpers/wait.js';

const execFileAsync = promisify(execFile);
/** Child processes need ~1 s to load tsx; they all start migrating at this instant. */
const START_DELAY_MS = 4_000;

function runConcurrently(n: number, target: string): Promise<{ stdout: string }[]> {
  const startAt = String(Date.now() + START_DELAY_MS);
  const args = ['--import', 'tsx', 'test/store/fixtures/migrate.ts', target, startAt];
  return Promise.all(Array.from({ length: n }, () => execFileAsync(process.execPath, args)));
}
const ALL = Object.keys(MIGRATIONS).sort();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function fresh(name: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const t = await createTestDatabase(name);
  cleanups.push(() => t.cleanup());
  return t;
}

async function tablesIn(schema: string): Promise<string[]> {
  const res = await withPgClient((c) =>
    c.query<{ table_name: string }>('select table_name from information_schema.tables where table_schema = $1 order by table_name', [
      schema,
    ]),
  );
  return res.rows.map((r) => r.table_name);
}

describe('migrations on PostgreSQL', () => {
  it('four concurrent migrations on a fresh schema: all succeed, each migration applied exactly once', async () => {
    const t = await fresh('postgres');
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase(t.options)));
    try {
      const applied = await Promise.all(dbs.map((db) => migrateToLatest(db)));
      expect(applied.flat().sort()).toEqual(ALL);
      const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(dbs[0]!);
      expect(rows.rows.map((r) => r.name)).toEqual(ALL);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
    }
    expect(await tablesIn(t.schema!)).toEqual(
      [
        'account_jwt_keys',
        'accounts',
        'api_keys',
        'kysely_migration',
        'kysely_migration_lock',
        'log_checkpoints',
        'log_leaves',
        'memberships',
        'oauth_access_tokens',
        'oauth_clients',
        'oauth_codes',
        'oauth_grants',
        'oauth_refresh_tokens',
        'one_time_links',
        'sessions',
        'sign_in_throttle',
        'usage_daily',
        'usage_flushes',
        'usage_key_daily',
        'users',
        'webhook_deliveries',
        'webhook_endpoints',
      ].sort(),
    );
  });

  it('four concurrent processes on a fresh schema', async () => {
    const t = await fresh('postgres');
    const outputs = await runConcurrently(4, t.options.databaseUrl!);
    for (const o of outputs) expect(JSON.parse(o.stdout)).toEqual({ again: [] });
    expect(await tablesIn(t.schema!)).toContain('api_keys');
  });

  it('waits for another holder of the migration lock longer than one statement may take', async () => {
    const t = await fresh('postgres');
    // Statements are bounded at 1 s here (the catalogue reads of the migrator's introspection take
    // a few hundred ms on a busy machine with many schemas); the lock is held for 4 s by another session.
    const bounds = {
      connectTimeoutMs: 2000,
      statementTimeoutMs: 1000,
      queryTimeoutMs: 1500,
      idleInTransactionTimeoutMs: 5000,
      requestTimeoutMs: 5000,
    };
    const db = await openDatabase({ ...t.options, pgBounds: bounds });
    try {
      const applied = await withPgClient(async (holder) => {
        await holder.query(`set search_path to ${t.schema}`);
        await holder.query('select pg_advisory_lock($1::int, hashtext($2))', [0x73323234, t.schema]);
        const migrating = migrateToLatest(db);
        await stallFor(4 * bounds.statementTimeoutMs); // the input: a hold four times longer than any statement may run
        await holder.query('select pg_advisory_unlock($1::int, hashtext($2))', [0x73323234, t.schema]);
        return migrating;
      });
      expect(applied).toEqual(ALL);
    } finally {
      await db.destroy();
    }
  });

  it('a schema is migrated on its own even when another schema already has the bookkeeping tables', async () => {
    const a = await fresh('postgres');
    const b = await fresh('postgres');
    for (const t of [a, b]) {
      const db = await openDatabase(t.options);
      try {
        expect(await migrateToLatest(db)).toEqual(ALL);
      } finally {
        await db.destroy();
      }
    }
  });

  it('fails with a clear message when the search_path schema does not exist', async () => {
    const db = await openDatabase({
      databaseUrl: pgUrlForSchema('t_missing_schema'),
      sqlitePath: 'unused',
    });
    try {
      await expect(migrateToLatest(db)).rejects.toThrow(/no current schema/);
    } finally {
      await db.destroy();
    }
  });
});

describe('migrations on SQLite', () => {
  it('four concurrent processes on a fresh file: all succeed, tables created once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-mig-'));
    cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'nested', 'db.sqlite');
    const outputs = await runConcurrently(4, file);
    for (const o of outputs) expect(JSON.parse(o.stdout)).toEqual({ again: [] });
    const db = await openDatabase({ sqlitePath: file });
    try {
      const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
      expect(rows.rows.map((r) => r.name)).toEqual(ALL);
      expect(await migrateToLatest(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

describe('restart on an existing SQLite file', () => {
  async function migratedFile(): Promise<string> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-mig-'));
    cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'db.sqlite');
    const db = await openDatabase({ sqlitePath: file });
    try {
      expect(await migrateToLatest(db)).toEqual(ALL);
    } finally {
      await db.destroy();
    }
    return file;
  }

  it('every migration applied: nothing runs, not even the write lock another process holds', async () => {
    const file = await migratedFile();
    const holder = await openDatabase({ sqlitePath: file });
    const db = await openDatabase({ sqlitePath: file });
    try {
      // Another process in a write transaction: the migrator's BEGIN IMMEDIATE would wait for it.
      await holder.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          expect(await migrateToLatest(db)).toEqual([]);
        } finally {
          await sql`rollback`.execute(conn);
        }
      });
    } finally {
      await Promise.all([holder.destroy(), db.destroy()]);
    }
  });

  it('a migration missing from the file is applied on the next start', async () => {
    const file = await migratedFile();
    const db = await openDatabase({ sqlitePath: file });
    try {
      const last = ALL[ALL.length - 1]!;
      await sql`drop index log_leaves_idempotency_key_idx`.execute(db);
      await sql`alter table log_leaves drop column idempotency_key`.execute(db);
      await sql`delete from kysely_migration where name = ${last}`.execute(db);
      expect(await migrateToLatest(db)).toEqual([last]);
    } finally {
      await db.destroy();
    }
  });

  it('a migration this build does not know is refused, not skipped', async () => {
    const file = await migratedFile();
    const db = await openDatabase({ sqlitePath: file });
    try {
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_build', ${new Date().toISOString()})`.execute(db);
      await expect(migrateToLatest(db)).rejects.toThrow(/Migration failed/);
    } finally {
      await db.destroy();
    }
  });
});

describe('openDatabase', () => {
  it('refuses a URL of another engine instead of silently using SQLite', async () => {
    await expect(openDatabase({ databaseUrl: 'mysql://root@localhost/db', sqlitePath: '/tmp/x.sqlite' })).rejects.toThrow(/postgres:\/\//);
  });

  it('reads bigint columns as numbers on PostgreSQL, and connects without a user in the URL', async () => {
    const db = await openDatabase({ databaseUrl: 'postgres://127.0.0.1:5432/test', sqlitePath: 'unused' });
    try {
      const { rows } = await sql<{ big: unknown; who: string }>`
        select 9007199254740991::bigint as big, current_user as who`.execute(db);
      expect(rows[0]).toEqual({ big: 9007199254740991, who: 'postgres' });
    } finally {
      await db.destroy();
    }
  });
});
