/**
 * The PostgreSQL side of database.ts, in a module of its own so that only a process whose
 * DATABASE_URL names PostgreSQL loads pg (database.ts imports it dynamically): embedded mode
 * never does.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { PgBounds } from './pg-bounds.js';
import { createBoundedPgPool } from './pg-pool.js';
import type { Database } from './schema.js';

/** PostgreSQL pool size per process; the API, workers and the CLI each open their own pool. */
const PG_POOL_MAX = 10;

export function openPostgres(databaseUrl: string, bounds: PgBounds): Kysely<Database> {
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
