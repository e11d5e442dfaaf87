/**
 * The service as real processes for the robustness suites: embedded mode (`dist/embedded.js`, the
 * bundle `npm start` runs) or a distributed API node with a worker (`dist/api.js`,
 * `dist/worker.js`, on Redis, PostgreSQL and s3rver). A crash shows as a process that is gone
 * (`kill -0`), not as an error inside the test runner.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createStore } from '../../shared/store/kysely-store.js';
import type { Plan } from '../../shared/store/types.js';
import { startCluster } from '../helpers/cluster.js';
import { spawnEntry } from '../helpers/spawn.js';
import { sha224Hex } from '../helpers/digests.js';
import { waitFor } from '../helpers/wait.js';

export interface Service {
  mode: 'embedded' | 'distributed';
  port: number;
  url: string;
  /** An enterprise production key (no rate limit, no quota). */
  key: string;
  newKey(plan: Plan): Promise<string>;
  /** Uploaded bytes still held by the blob store. */
  storedBlobs(): string[];
  /** `kill -0` on every process of the service. */
  alive(): boolean;
  output(): string;
  close(): Promise<void>;
}

function filesUnder(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name));
  } catch {
    return [];
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function spawnEmbedded(env: Record<string, string> = {}): Promise<Service> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-robust-'));
  const proc = spawnEntry('embedded', { DATA_DIR: dataDir, PORT: '0', ...env });
  const url = (await proc.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const key = (await proc.waitFor(/API key: (s224_\w+)/))[1]!;
  const store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
  return {
    mode: 'embedded',
    port: Number(new URL(url).port),
    url,
    key,
    async newKey(plan) {
      const account = await store.createAccount({ name: `robust-${plan}`, plan });
      return (await createApiKey(store, { accountId: account.id, type: 'production', description: plan })).secret;
    },
    storedBlobs: () => filesUnder(path.join(dataDir, 'blobs')),
    alive: () => isRunning(proc.pid) && proc.child.exitCode === null,
    output: () => proc.output(),
    async close() {
      await store.close();
      await proc.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function spawnDistributed(env: Record<string, string> = {}): Promise<Service> {
  const cluster = await startCluster({ apiNodes: 1, workers: 1, env });
  const url = cluster.url(0);
  return {
    mode: 'distributed',
    port: Number(new URL(url).port),
    url,
    key: cluster.keys.production,
    newKey: (plan) => cluster.newKey({ plan }),
    storedBlobs: () => cluster.storedObjects(),
    alive: () => [...cluster.apis, ...cluster.workers].every((p) => isRunning(p.pid) && p.child.exitCode === null),
    output: () => [...cluster.apis, ...cluster.workers].map((p) => p.output()).join('\n'),
    close: () => cluster.close(),
  };
}

export { SHA224_ABC as ABC_SHA224 } from '../helpers/digests.js';

/** The service still answers a normal request correctly (a fresh `data` each time, cross-checked). */
export async function answersHash(service: Service): Promise<void> {
  const data = `probe-${Math.random()}`;
  const res = await fetch(`${service.url}/v2/hash`, {
    method: 'POST',
    headers: { 'x-api-key': service.key, 'content-type': 'application/json' },
    body: JSON.stringify({ data }),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await res.json()) as { hash?: string };
  if (res.status !== 200 || body.hash !== sha224Hex(data)) {
    throw new Error(`/v2/hash answered ${res.status} ${JSON.stringify(body)}`);
  }
}

/** Waits (polling, with a deadline) until the blob store holds nothing; returns what is left. */
export function blobsLeft(service: Service, withinMs = 5000): Promise<string[]> {
  return waitFor(() => service.storedBlobs().length === 0, { timeoutMs: withinMs, what: 'the blob store to empty' }).then(
    () => [],
    () => service.storedBlobs(),
  );
}
