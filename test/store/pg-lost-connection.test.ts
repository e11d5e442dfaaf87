/**
 * A PostgreSQL connection lost while the service holds it checked out, between two statements: pg
 * emits 'error' on that client, which pg-pool listens to only while the client is idle. The
 * bounded pool (shared/store/pg-pool.ts) must hear it (an unheard 'error' event ends the process;
 * vitest fails the run on it), answer the holder's next statement 503 at once, and destroy the
 * client on release rather than hand it out again.
 */
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PG_BOUNDS } from '../../shared/store/pg-bounds.js';
import { createBoundedPgPool } from '../../shared/store/pg-pool.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { PG_URL } from './engines.js';

let proxy: TcpProxy;
let pool: ReturnType<typeof createBoundedPgPool>;

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  const url = new URL(PG_URL);
  url.port = String(proxy.port);
  pool = createBoundedPgPool({ connectionString: url.toString(), max: 2, bounds: DEFAULT_PG_BOUNDS, types: pg.types });
  pool.raw.on('error', () => undefined);
});

afterAll(async () => {
  await pool?.pool.end();
  await proxy?.close();
});

describe('a connection lost while checked out', () => {
  it('is heard, fails the next statement with 503 at once, and is destroyed on release; the pool then serves again', async () => {
    const acquired = once(pool.raw, 'acquire') as Promise<[pg.PoolClient]>;
    const held = await pool.pool.connect();
    const [raw] = await acquired;
    expect((await held.query<{ one: number }>('select 1 as one', [])).rows).toEqual([{ one: 1 }]);

    // Not events.once: it would listen for 'error' itself and hide what this test is about.
    const ended = new Promise((resolve) => raw.once('end', resolve));
    await proxy.setMode('closed');
    await ended;

    const started = Date.now();
    await expect(held.query('select 1', [])).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(Date.now() - started).toBeLessThan(1000);
    held.release();
    expect(pool.raw.totalCount).toBe(0);

    await proxy.setMode('forward');
    const fresh = await pool.pool.connect();
    try {
      expect((await fresh.query<{ two: number }>('select 2 as two', [])).rows).toEqual([{ two: 2 }]);
    } finally {
      fresh.release();
    }
  });
});
