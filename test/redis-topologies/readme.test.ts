/**
 * README "Running distributed": the Sentinel and the Cluster examples run as printed, on a
 * topology this test starts (test/helpers/redis-topology.ts). It replaces only the literals that
 * must be its own: the sentinel or node list → the started servers, the PostgreSQL URL → a fresh
 * schema (so the API node prints a first key), ports 8080 and 9091 → unused ones.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha224Hex } from '../helpers/digests.js';
import { pickUnusedPort } from '../helpers/ports.js';
import { startRedisCluster, startRedisSentinel, type RedisTopologyUnderTest } from '../helpers/redis-topology.js';
import { ROOT } from '../helpers/spawn.js';
import { createTestDatabase, type TestDatabase } from '../store/engines.js';
import { jsonValues } from '../docs/commands/answers.js';
import { shellBlocks } from '../docs/commands/extract.js';
import { runServiceScript } from '../docs/commands/service-script.js';

const TIME_BOUND_MS = 90_000;
const blocks = shellBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function replace(text: string, from: string, to: string): string {
  expect(text, `the example prints ${from}`).toContain(from);
  return text.split(from).join(to);
}

async function runExample(marker: string, topology: RedisTopologyUnderTest, printed: Record<string, string>): Promise<string> {
  const block = blocks.find((b) => b.notRun?.startsWith(`runs in test/redis-topologies/readme.test.ts on ${marker}`));
  expect(block, `a README block marked "not run: runs in test/redis-topologies/readme.test.ts on ${marker} …"`).toBeDefined();
  const db: TestDatabase = await createTestDatabase('postgres');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-readme-redis-'));
  cleanups.push(async () => {
    await db.cleanup();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const [api, metrics] = [await pickUnusedPort(), await pickUnusedPort()];
  let script = block!.code;
  for (const [from, setting] of Object.entries(printed)) script = replace(script, from, topology.env[setting]!);
  script = replace(script, 'postgres://postgres@127.0.0.1:5432/postgres', `'${db.options.databaseUrl!}'`);
  script = replace(script, '8080', String(api));
  script = replace(script, '9091', String(metrics));
  const { code, out } = await runServiceScript(script, { tmp, timeoutMs: TIME_BOUND_MS });
  expect(code, out).toBe(0);
  return out;
}

function expectCompletedAbc(out: string): void {
  const job = jsonValues(out).find((v) => (v as { status?: unknown }).status === 'completed');
  expect(job, out).toMatchObject({ success: true, status: 'completed', results: [{ id: 'a', hash: sha224Hex('abc') }] });
}

describe('README "Running distributed": the Sentinel and Cluster examples', () => {
  it(
    'Sentinel: an API node and a worker find the primary through the sentinels and run a job',
    { timeout: TIME_BOUND_MS + 60_000 },
    async () => {
      const topology = await startRedisSentinel();
      cleanups.push(() => topology.stop());
      const out = await runExample('a primary, a replica and 3 sentinels', topology, {
        '127.0.0.1:26379,127.0.0.1:26380,127.0.0.1:26381': 'REDIS_SENTINELS',
        mymaster: 'REDIS_SENTINEL_NAME',
      });
      expectCompletedAbc(out);
    },
  );

  it('Cluster: an API node and a worker on a 3-master + 3-replica cluster run a job', { timeout: TIME_BOUND_MS + 60_000 }, async () => {
    const topology = await startRedisCluster();
    cleanups.push(() => topology.stop());
    const out = await runExample('a 3-master + 3-replica cluster', topology, {
      '127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002': 'REDIS_CLUSTER_NODES',
    });
    expectCompletedAbc(out);
  });
});
