/**
 * PostgreSQL that hangs or is down: a real `npm start` process reaches the machine's PostgreSQL
 * through a TCP proxy the test switches. Every request that needs the store answers 503
 * SERVICE_UNAVAILABLE with Retry-After in its generation's envelope within the request's database
 * time, PG_REQUEST_TIMEOUT_MS (never a 500, never a hang, never connect and query bounds added up),
 * and the node serves again once the database is back, its stalled connections discarded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch } from 'undici';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createStore } from '../../shared/store/kysely-store.js';
import type { KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { createTestDatabase, pgUrlForSchema, type TestDatabase } from '../store/engines.js';
import { SHA224_ABC as ABC } from '../helpers/digests.js';

/**
 * Each step alone may wait 3 s; a request, 1 s on the database in all (PG_REQUEST_TIMEOUT_MS): the
 * request's deadline, not a step's bound nor their sum, decides when the 503 comes.
 */
const BOUNDS = {
  PG_CONNECT_TIMEOUT_MS: '3000',
  PG_STATEMENT_TIMEOUT_MS: '3000',
  PG_QUERY_TIMEOUT_MS: '3000',
  PG_REQUEST_TIMEOUT_MS: '1000',
};
/** The request's database time plus slack for a loaded machine; half a step's own bound. */
const ANSWER_WITHIN_MS = 1500;

let db: TestDatabase;
let store: KyselyAccountStore;
let proxy: TcpProxy;
let node: SpawnedProcess;
let base: string;
let key: string;
/**
 * A key the node has never accepted: its lookup must reach the database. (Keys it accepted are
 * answered from its 5 s positive cache, shared/keys/api-keys.ts, for a moment without one.)
 */
let coldKey: string;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase('postgres');
  store = await createStore(db.options);
  const account = await store.createAccount({ name: 'outage', plan: 'enterprise' });
  key = (await createApiKey(store, { accountId: account.id, type: 'production', description: 'outage' })).secret;
  coldKey = (await createApiKey(store, { accountId: account.id, type: 'production', description: 'cold' })).secret;
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  const viaProxy = new URL(pgUrlForSchema(db.schema!));
  viaProxy.port = String(proxy.port);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-pg-outage-'));
  node = spawnEntry('embedded', { DATABASE_URL: viaProxy.toString(), DATA_DIR: dataDir, PORT: '0', BOOTSTRAP_ADMIN: 'false', ...BOUNDS });
  base = (await node.waitFor(/listening on (http:\/\/\S+?)(?:\s|$)/))[1]!;
});

afterAll(async () => {
  await node?.stop('SIGKILL');
  await proxy?.close();
  await store?.close();
  await db?.cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  ms: number;
}

// A connection per request: the node closes idle keep-alive sockets on its own schedule, and a POST
// sent on one it is closing fails with "other side closed" (a client race, not the behaviour tested).
const fresh = new Agent({ pipelining: 0 });

async function call(generation: 'v1' | 'v2', secret = key): Promise<Answer> {
  const t0 = Date.now();
  const res = await fetch(`${base}/${generation}/hash`, {
    dispatcher: fresh,
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: '{"data":"abc"}',
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: Date.now() - t0 };
}

const V2_UNAVAILABLE = {
  success: false,
  error: {
    code: 'SERVICE_UNAVAILABLE',
    message: 'Service temporarily unavailable',
    details: 'the database is unavailable',
    retry_after: 5,
  },
};
const V1_UNAVAILABLE = {
  error: {
    code: 'SERVICE_UNAVAILABLE',
    message: 'Service temporarily unavailable',
    details: { info: 'the database is unavailable', retry_after: 5 },
  },
};

function expectUnavailable(answer: Answer, generation: 'v1' | 'v2'): void {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe('5');
  expect(answer.body).toEqual(generation === 'v2' ? V2_UNAVAILABLE : V1_UNAVAILABLE);
  expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
}

async function expectServing(): Promise<void> {
  const v2 = await call('v2');
  expect(v2.status).toBe(200);
  expect(v2.body.hash).toBe(ABC);
  const v1 = await call('v1');
  expect(v1.status).toBe(200);
  expect(v1.body.hash).toBe(ABC);
}

describe('PostgreSQL bounded', () => {
  it('serves through the proxy while the database answers', async () => {
    expect(createHash('sha224').update('abc').digest('hex')).toBe(ABC);
    await expectServing();
  });

  it('a database that accepts and never answers: 503 with Retry-After in each envelope, within the request deadline', async () => {
    await proxy.setMode('hold');
    // The first requests meet pooled connections that went silent (query timeout), later ones new
    // connections that are never answered (connect timeout): both kinds, in both generations.
    for (let i = 0; i < 3; i++) {
      expectUnavailable(await call('v2', coldKey), 'v2');
      expectUnavailable(await call('v1', coldKey), 'v1');
    }
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.store).toBe('failed');
  }, 60_000);

  it('back from the hang: served again, the stalled connections never reused', async () => {
    await proxy.setMode('forward');
    // Connections stalled by the hang stay stalled: a pool that handed one out again would time out here.
    await expect.poll(async () => (await call('v2')).status, { timeout: 10_000, interval: 200 }).toBe(200);
    // Past the key cache's 5 s, so every one of the pool's connections is asked for again.
    const until = Date.now() + 6000;
    while (Date.now() < until) await expectServing();
  }, 60_000);

  it('a database that is down (connections refused): 503 at once, then served again when it returns', async () => {
    await proxy.setMode('closed');
    for (let i = 0; i < 3; i++) {
      const v2 = await call('v2', coldKey);
      expectUnavailable(v2, 'v2');
      expect(v2.ms).toBeLessThan(1000);
      expectUnavailable(await call('v1', coldKey), 'v1');
    }
    await proxy.setMode('forward');
    await expect.poll(async () => (await call('v2', coldKey)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    await expectServing();
  }, 60_000);
});
