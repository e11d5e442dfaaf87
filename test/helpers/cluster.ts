/**
 * A distributed deployment as real processes: N API nodes (dist/api.js) and M workers
 * (dist/worker.js) on the machine's Redis (a fresh QUEUE_PREFIX), a fresh PostgreSQL schema and
 * s3rver in a process of its own (test/helpers/fixtures/s3rver.mjs). The test process shares the database, so it creates accounts and keys.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createStore } from '../../shared/store/kysely-store.js';
import type { AccountStore, KeyType, Plan } from '../../shared/store/types.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { createTestDatabase } from '../store/engines.js';
import { spawnEntry, spawnNode, type SpawnedProcess } from './spawn.js';

export const S3_BUCKET = 'sha224d';

export interface Cluster {
  urls: string[];
  /** Base URL of API node `i`. */
  url(i: number): string;
  apis: SpawnedProcess[];
  workers: SpawnedProcess[];
  store: AccountStore;
  accountId: string;
  keys: Record<KeyType, string>;
  env: Record<string, string>;
  s3Directory: string;
  /** The s3rver process's pid (undefined with `s3Endpoint`). */
  s3Pid: number | undefined;
  /** Start one more worker (e.g. after killing one). */
  addWorker(args?: string[]): Promise<SpawnedProcess>;
  /** Start one more API node with extra environment. */
  addApi(env?: Record<string, string>): Promise<{ proc: SpawnedProcess; url: string }>;
  newKey(options: { type?: KeyType; plan?: Plan; expiresAt?: Date }): Promise<string>;
  /** Objects currently stored in the S3 bucket (uploads not yet deleted). */
  storedObjects(): string[];
  close(): Promise<void>;
}

export interface ClusterOptions {
  apiNodes?: number;
  workers?: number;
  env?: Record<string, string>;
  workerArgs?: string[];
  redisUrl?: string;
  /**
   * The Redis settings instead of REDIS_URL (REDIS_SENTINELS…, REDIS_CLUSTER_NODES; a private
   * topology: test/helpers/redis-topology.ts), and the QUEUE_PREFIX to run with.
   */
  redisEnv?: { env: Record<string, string>; prefix: string };
  /** Use this S3 endpoint instead of starting s3rver (fault tests point it at a closed port). */
  s3Endpoint?: string;
  /** Reach the started s3rver through the endpoint this returns (fault tests put a TCP proxy in between). */
  s3Via?: (s3rverEndpoint: string) => Promise<string>;
  /**
   * Start s3rver at this nice value, or under SCHED_IDLE (`idle`): a bench puts the stand-in for a
   * remote S3 below the processes it measures (test/bench/bulk.ts).
   */
  s3Nice?: number | 'idle';
}

function listFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name));
  } catch {
    return [];
  }
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const db = await createTestDatabase('postgres');
  const s3Directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-s3-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cluster-'));
  let s3: SpawnedProcess | undefined;
  // s3rver starts while the test process migrates the schema and creates the account (below).
  const s3Started = (async (): Promise<string> => {
    if (options.s3Endpoint) return options.s3Endpoint;
    s3 = spawnNode(
      's3rver',
      [path.join(import.meta.dirname, 'fixtures', 's3rver.mjs'), s3Directory, S3_BUCKET],
      {},
      options.s3Nice === 'idle' ? { schedIdle: true } : { nice: options.s3Nice },
    );
    const endpoint = (await s3.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    return options.s3Via ? options.s3Via(endpoint) : endpoint;
  })();
  // Awaited below; a failure meanwhile must not surface as an unhandled rejection.
  s3Started.catch(() => undefined);
  const store = await createStore(db.options);
  const account = await store.createAccount({ name: 'cluster', plan: 'enterprise' });
  const keys = {} as Record<KeyType, string>;
  for (const type of ['production', 'development', 'read_only', 'client'] as const) {
    keys[type] = (
      await createApiKey(store, {
        accountId: account.id,
        type,
        description: type,
        allowedDomains: type === 'client' ? ['app.example.com'] : [],
      })
    ).secret;
  }
  const s3Endpoint = await s3Started;
  const prefix = options.redisEnv?.prefix ?? freshPrefix();
  const redisUrl = options.redisUrl ?? SHARED_REDIS_URL;
  const env: Record<string, string> = {
    ...(options.redisEnv?.env ?? { REDIS_URL: redisUrl }),
    QUEUE_PREFIX: prefix,
    DATABASE_URL: db.options.databaseUrl!,
    S3_ENDPOINT: s3Endpoint,
    S3_BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    DATA_DIR: dataDir,
    PORT: '0',
    BOOTSTRAP_ADMIN: 'false',
    SHUTDOWN_GRACE_MS: '5000',
    // Several workers share this host: each metrics listener takes a free port (it prints which).
    METRICS_PORT: '0',
    ...options.env,
  };

  const apis: SpawnedProcess[] = [];
  const workers: SpawnedProcess[] = [];
  const urls: string[] = [];
  const addApi = async (extra: Record<string, string> = {}) => {
    const proc = spawnEntry('api', { ...env, ...extra });
    apis.push(proc);
    const url = (await proc.waitFor(/api listening on (http:\/\/\S+)/))[1]!;
    return { proc, url };
  };
  const addWorker = async (args: string[] = options.workerArgs ?? []) => {
    const proc = spawnEntry('worker', env, args);
    workers.push(proc);
    await proc.waitFor(/worker ready/);
    return proc;
  };
  // Workers never open the database, so they start beside the API nodes rather than after them.
  try {
    const [started] = await Promise.all([
      Promise.all(Array.from({ length: options.apiNodes ?? 2 }, () => addApi())),
      Promise.all(Array.from({ length: options.workers ?? 2 }, () => addWorker())),
    ]);
    urls.push(...started.map((s) => s.url));
  } catch (err) {
    // The caller gets no cluster to close: stop what did start.
    await Promise.all([...apis, ...workers, ...(s3 ? [s3] : [])].map((p) => p.stop('SIGKILL')));
    await store.close();
    throw err;
  }

  return {
    urls,
    url: (i) => urls[i]!,
    apis,
    workers,
    store,
    accountId: account.id,
    keys,
    env,
    s3Directory,
    s3Pid: s3?.pid,
    addWorker,
    addApi,
    async newKey({ type = 'production', plan, expiresAt }) {
      const accountId = plan ? (await store.createAccount({ name: `acct-${plan}`, plan })).id : account.id;
      return (await createApiKey(store, { accountId, type, description: 'extra', expiresAt })).secret;
    },
    // s3rver keeps each object as <key>._S3rver_object beside its metadata and checksum files.
    storedObjects: () => listFiles(path.join(s3Directory, S3_BUCKET)).filter((f) => f.endsWith('._S3rver_object')),
    async close() {
      await Promise.all([...apis, ...workers].map((p) => p.stop('SIGKILL')));
      await store.close();
      await s3?.stop();
      await db.cleanup();
      // A test's private Redis is thrown away with its data (and may be stopped by now).
      if (options.redisUrl === undefined && options.redisEnv === undefined) await dropPrefix(redisUrl, prefix);
      fs.rmSync(s3Directory, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
