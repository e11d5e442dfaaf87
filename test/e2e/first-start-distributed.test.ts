/**
 * First start of distributed mode: API nodes (dist/api.js) started together on a fresh PostgreSQL
 * schema bootstrap the admin exactly once across the cluster. One node prints the key and the
 * dashboard link, the others (and a node started later) print none, and the key hashes. Without
 * S3 settings each node warns that its blobs are local.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_BLOBS_WARNING } from '../../shared/blob/open.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { createTestDatabase, type TestDatabase } from '../store/engines.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';

const LISTENING = /api listening on (http:\/\/\S+)/;
const KEY_LINE = /^API key: (s224_\w+)$/gm;
const LINK_LINE = /^Dashboard: set the password of admin@localhost within 24 hours \(the link works once\): (\S+)$/gm;

let db: TestDatabase;
let dataDir: string;
let env: Record<string, string>;
const prefix = freshPrefix();
const nodes: SpawnedProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase('postgres');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-dist-first-'));
  env = {
    REDIS_URL: SHARED_REDIS_URL,
    QUEUE_PREFIX: prefix,
    DATABASE_URL: db.options.databaseUrl!,
    DATA_DIR: dataDir,
    PORT: '0',
    S3_ENDPOINT: '',
    S3_BUCKET: '',
  };
});
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop('SIGKILL')));
  await db.cleanup();
  await dropPrefix(SHARED_REDIS_URL, prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = (): SpawnedProcess => {
  const node = spawnEntry('api', env);
  nodes.push(node);
  return node;
};

describe('first start of a distributed cluster', () => {
  it('two API nodes started together: exactly one prints one key and one dashboard link; the key hashes', { timeout: 90_000 }, async () => {
    const pair = [start(), start()];
    const urls = await Promise.all(pair.map(async (n) => (await n.waitFor(LISTENING, 60_000))[1]!));
    // A node prints its key right after its "listening" line; the winner's key settles the wait.
    await Promise.race(pair.map((n) => n.waitFor(/^A lost link is replaced with: .*$/m, 30_000)));
    const keys = pair.map((n) => [...n.output().matchAll(KEY_LINE)].map((m) => m[1]!));
    const links = pair.map((n) => [...n.output().matchAll(LINK_LINE)].map((m) => m[1]!));
    expect(keys.map((k) => k.length).sort()).toEqual([0, 1]);
    expect(links.map((l) => l.length).sort()).toEqual([0, 1]);
    const winner = keys.findIndex((k) => k.length === 1);
    expect(links[winner]).toHaveLength(1);
    expect(links[winner]![0]!.startsWith(`${urls[winner]}/dashboard/set-password#token=s224l_`)).toBe(true);
    expect(pair[winner]!.output()).toContain(`A lost link is replaced with: DATABASE_URL=`);

    const key = keys[winner]![0]!;
    for (const url of urls) {
      const res = await fetch(`${url}/v2/hash`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ data: 'abc' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { hash: string }).hash).toBe('23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7');
    }

    const store = await createStore(db.options);
    try {
      expect((await store.listAccounts()).map((a) => [a.name, a.plan])).toEqual([['admin', 'enterprise']]);
      expect(await store.listKeys()).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('a node started later prints no key and no link', { timeout: 60_000 }, async () => {
    const later = start();
    await later.waitFor(LISTENING, 60_000);
    expect(later.output()).not.toMatch(/API key:|Dashboard:/);
  });

  it('each node without S3 settings warns at start that its blobs are local', () => {
    for (const node of nodes) expect(node.output()).toContain(LOCAL_BLOBS_WARNING);
  });
});
