/**
 * A distributed deployment as real processes: N API nodes (dist/api.js) and M workers
 * (dist/worker.js) on the machine's Redis (a fresh QUEUE_PREFIX), a fresh PostgreSQL schema and
 * an in-process s3rver. The test process shares the database, so it creates accounts and keys.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createStore } from '../../shared/store/kysely-store.js';
import type { AccountStore, KeyType, Plan } from '../../shared/store/types.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { createTestDatabase } from '../store/engines.js';
import { spawnEntry, type SpawnedProcess } from './spawn.js';

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
  /** Start one more worker (e.g. after killing one). */
  addWorker(args?: string[]): Promise<SpawnedProcess>;
  /** Start one more API node with extra environment. */
  addApi(env?: Record<string, string>): Promise<{ proc: SpawnedProcess; url: string }>;
  newKey(options: { type?: KeyType; plan?: Plan }): Promise<string>;
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
  /** Use this S3 endpoint instead of starting s3rver (fault tests point it at a closed port). */
  s3Endpoint?: string;
}

function listFiles(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
  } catch {
    return [];
  }
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const db = await createTestDatabase('postgres');
  const s3Directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-s3-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cluster-'));
  let s3: S3rver | undefined;
  let s3Endpoint = options.s3Endpoint;
  if (!s3Endpoint) {
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Directory, configureBuckets: [{ name: S3_BUCKET }] });
    const { port } = await s3.run();
    s3Endpoint = `http://127.0.0.1:${port}`;
  }
  const prefix = freshPrefix();
  const redisUrl = options.redisUrl ?? SHARED_REDIS_URL;
  const env: Record<string, string> = {
    REDIS_URL: redisUrl,
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
    ...options.env,
  };

  const store = await createStore(db.options);
  const account = await store.createAccount({ name: 'cluster', plan: 'enterprise' });
  const keys = {} as Record<KeyType, string>;
  for (const type of ['production', 'development', 'read_only', 'client'] as const) {
    keys[type] = (await createApiKey(store, { accountId: account.id, type, description: type, allowedDomains: type === 'client' ? ['app.example.com'] : [] })).secret;
  }

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
  const started = await Promise.all(Array.from({ length: options.apiNodes ?? 2 }, () => addApi()));
  urls.push(...started.map((s) => s.url));
  await Promise.all(Array.from({ length: options.workers ?? 2 }, () => addWorker()));

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
    addWorker,
    addApi,
    async newKey({ type = 'production', plan }) {
      const accountId = plan ? (await store.createAccount({ name: `acct-${plan}`, plan })).id : account.id;
      return (await createApiKey(store, { accountId, type, description: 'extra' })).secret;
    },
    // s3rver keeps each object as <key>._S3rver_object beside its metadata and checksum files.
    storedObjects: () => listFiles(path.join(s3Directory, S3_BUCKET)).filter((f) => f.endsWith('._S3rver_object')),
    async close() {
      await Promise.all([...apis, ...workers].map((p) => p.stop('SIGKILL')));
      await store.close();
      await s3?.close();
      await db.cleanup();
      await dropPrefix(redisUrl, prefix);
      fs.rmSync(s3Directory, { recursive: true, force: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
