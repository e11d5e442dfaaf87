/**
 * One database deadline per request (PG_REQUEST_TIMEOUT_MS): the time a request already spent on
 * PostgreSQL is taken from what its next connect or statement may wait, so the steps never add up
 * past it, against the machine's PostgreSQL behind a TCP proxy that goes silent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { ServiceError } from '../../shared/errors.js';
import { openDatabase } from '../../shared/store/database.js';
import type { Database } from '../../shared/store/schema.js';
import { runWithTrace } from '../../shared/trace.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestDatabase, pgUrlForSchema, type TestDatabase } from './engines.js';

/** Each step alone may wait 3 s; a request, 1 s in all. */
const BOUNDS = {
  connectTimeoutMs: 3000,
  statementTimeoutMs: 3000,
  queryTimeoutMs: 3000,
  idleInTransactionTimeoutMs: 5000,
  requestTimeoutMs: 1000,
};
/** The request's 1 s plus slack for a loaded machine; well below one step's own 3 s. */
const WITHIN_MS = 1500;

let testDb: TestDatabase;
let proxy: TcpProxy;
let db: Kysely<Database>;

beforeAll(async () => {
  testDb = await createTestDatabase('postgres');
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  const viaProxy = new URL(pgUrlForSchema(testDb.schema!));
  viaProxy.port = String(proxy.port);
  db = await openDatabase({ databaseUrl: viaProxy.toString(), sqlitePath: '/nonexistent/unused.sqlite', pgBounds: BOUNDS });
});

afterAll(async () => {
  await proxy?.close();
  await db?.destroy().catch(() => undefined);
  await testDb?.cleanup();
});

/** Runs `fn` as the database work of one request; resolves with how it ended and how long it took. */
async function asRequest(fn: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const t0 = performance.now();
  const error = await runWithTrace({ requestId: 'pg-request-time' }, fn).then(
    () => undefined,
    (err: unknown) => err,
  );
  return { error, ms: performance.now() - t0 };
}

function expectUnavailable(error: unknown): void {
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).code).toBe('SERVICE_UNAVAILABLE');
  expect((error as ServiceError).retryAfter).toBe(5);
}

describe('one database deadline per request', () => {
  it("a statement after 600 ms of database work gets only what is left of the request's time", async () => {
    await proxy.setMode('forward');
    const answer = await asRequest(async () => {
      await sql`select pg_sleep(0.6)`.execute(db);
      await proxy.setMode('hold'); // the database goes silent between the request's two statements
      await sql`select 1`.execute(db);
    });
    expectUnavailable(answer.error);
    expect(answer.ms).toBeGreaterThanOrEqual(1000);
    expect(answer.ms).toBeLessThan(WITHIN_MS);
  });

  it("a connection that cannot be had gets the request's time, not the connect bound", async () => {
    await proxy.setMode('hold'); // new connections are accepted and never answered
    const answer = await asRequest(() => sql`select 1`.execute(db));
    expectUnavailable(answer.error);
    expect(answer.ms).toBeLessThan(WITHIN_MS);
  });

  it('a request out of time is refused at once', async () => {
    const answer = await asRequest(async () => {
      await sql`select 1`.execute(db).catch(() => undefined); // spends the whole second
      const t0 = performance.now();
      await sql`select 1`.execute(db).finally(() => expect(performance.now() - t0).toBeLessThan(100));
    });
    expectUnavailable(answer.error);
  });

  it('served again when the database answers, each request with its own time', async () => {
    await proxy.setMode('forward');
    for (let i = 0; i < 3; i++) {
      const answer = await asRequest(() => sql`select pg_sleep(0.4)`.execute(db));
      expect(answer.error).toBeUndefined();
    }
  });
});
