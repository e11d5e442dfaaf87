/**
 * Where a suite runs: the embedded app in process on SQLite or PostgreSQL, or a distributed
 * cluster of real processes (2 API nodes + 2 workers on Redis, PostgreSQL and s3rver). The /v2
 * and /v1 API suites run on all three, so each engine and distributed mode are held to the same
 * assertions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../../shared/config.js';
import type { AccountStore, KeyType, Plan } from '../../shared/store/types.js';
import { startTestServer } from './api-server.js';
import { startCluster, type ClusterOptions } from './cluster.js';

export type TargetName = 'sqlite' | 'postgres' | 'cluster';
export const TARGETS: TargetName[] = ['sqlite', 'postgres', 'cluster'];

export interface Target {
  name: TargetName;
  /** Every API node's base URL (one in embedded mode). */
  urls: string[];
  url: string;
  config: Config;
  store: AccountStore;
  keys: Record<KeyType, string>;
  /** Uploaded bytes still held by the blob store. */
  storedBlobs(): string[];
  newKey(options: { type?: KeyType; plan?: Plan; expiresAt?: Date }): Promise<string>;
  /** The cluster only: SIGKILL API node `i` (its URL stays in `urls`, refusing connections). */
  killApi?(i: number): Promise<void>;
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

/**
 * For suites that talk to one node only (the v1 suites): one API node and one worker still take
 * every request through BullMQ, s3rver and PostgreSQL, at half the processes to start.
 */
export const ONE_NODE_CLUSTER: ClusterSize = { apiNodes: 1, workers: 1 };

export type ClusterSize = Pick<ClusterOptions, 'apiNodes' | 'workers'>;

/** `size` applies to the cluster target (2 API nodes and 2 workers unless given). */
export async function startTarget(name: TargetName, env: Record<string, string> = {}, size: ClusterSize = {}): Promise<Target> {
  if (name === 'cluster') {
    const c = await startCluster({ env, ...size });
    return {
      name,
      urls: c.urls,
      url: c.urls[0]!,
      config: loadConfig(c.env),
      store: c.store,
      keys: c.keys,
      storedBlobs: () => c.storedObjects(),
      newKey: (o) => c.newKey(o),
      killApi: async (i) => {
        await c.apis[i]?.stop('SIGKILL');
      },
      close: () => c.close(),
    };
  }
  const s = await startTestServer({ engine: name, env });
  return {
    name,
    urls: [s.url],
    url: s.url,
    config: s.config,
    store: s.store,
    keys: s.keys,
    storedBlobs: () => filesUnder(path.join(s.config.dataDir, 'blobs')),
    newKey: async (o) => (await s.newKey(o)).secret,
    close: () => s.close(),
  };
}
