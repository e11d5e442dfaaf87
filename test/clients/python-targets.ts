/**
 * The two live services the Python SDK is tested against, each with what the live tests need:
 * a production key of an Enterprise account, a read-only key, a free-plan key (413, 429), a
 * JWT secret with the account it may name, a sandbox listener, and URL fetching from 127.0.0.1.
 */
import { selfSignedTsaCert } from '../../shared/proof/tsa-cert.js';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { SQLITE_FILE_NAME } from '../../shared/store/database.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { startCluster } from '../helpers/cluster.js';
import { spawnEntry } from '../helpers/spawn.js';
import { pickUnusedPort } from '../helpers/ports.js';

export interface LiveTarget {
  name: 'embedded' | 'distributed';
  /** The SHA224D_TEST_* variables the Python live tests read. */
  env: Record<string, string>;
  close(): Promise<void>;
}

function baseEnv(url: string, key: string, sandboxPort: number, jwtSecret: string, accountId: string): Record<string, string> {
  return {
    SHA224D_TEST_URL: url,
    SHA224D_TEST_API_KEY: key,
    SHA224D_TEST_SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`,
    SHA224D_TEST_JWT_SECRET: jwtSecret,
    SHA224D_TEST_ACCOUNT_ID: accountId,
    SHA224D_TEST_URL_FETCH: '1',
    SHA224D_TEST_INSTALLED: '1',
  };
}

/** `npm start`'s bundle with a fresh DATA_DIR; its bootstrap key belongs to the Enterprise account `admin`. */
export async function startEmbeddedTarget(dataDir: string): Promise<LiveTarget> {
  const sandboxPort = await pickUnusedPort(); // in advance: the sandbox is recognised by its configured port
  const jwtSecret = randomBytes(32).toString('hex');
  const proc = spawnEntry('embedded', {
    DATA_DIR: dataDir,
    PORT: '0',
    SANDBOX_PORT: String(sandboxPort),
    URL_FETCH_ALLOW_LOOPBACK: 'true',
    JWT_SECRET: jwtSecret,
  });
  const url = (await proc.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  const key = (await proc.waitFor(/API key: (s224_\w+)/))[1]!;
  // The server owns the SQLite file; a second connection adds accounts and keys beside it (WAL).
  const store = await createStore({ sqlitePath: path.join(dataDir, SQLITE_FILE_NAME) });
  try {
    const admin = (await store.listAccounts()).find((a) => a.name === 'admin')!;
    const free = await store.createAccount({ name: 'free', plan: 'free' });
    const readOnly = await createApiKey(store, { accountId: admin.id, type: 'read_only', description: 'python sdk tests' });
    const freeKey = await createApiKey(store, { accountId: free.id, type: 'production', description: 'python sdk tests' });
    return {
      name: 'embedded',
      env: {
        ...baseEnv(url, key, sandboxPort, jwtSecret, admin.id),
        SHA224D_TEST_READ_ONLY_KEY: readOnly.secret,
        SHA224D_TEST_FREE_KEY: freeKey.secret,
        SHA224D_TEST_BIG_STREAM: '1',
      },
      async close() {
        await proc.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } finally {
    await store.close();
  }
}

/** One API node and one worker on Redis, PostgreSQL and s3rver (test/helpers/cluster.ts). */
export async function startDistributedTarget(): Promise<LiveTarget> {
  const sandboxPort = await pickUnusedPort(); // in advance: the sandbox is recognised by its configured port
  const jwtSecret = randomBytes(32).toString('hex');
  const cluster = await startCluster({
    apiNodes: 1,
    workers: 1,
    env: { URL_FETCH_ALLOW_LOOPBACK: 'true', JWT_SECRET: jwtSecret, SANDBOX_PORT: String(sandboxPort), ...proofKeys() },
  });
  return {
    name: 'distributed',
    env: {
      ...baseEnv(cluster.url(0), cluster.keys.production, sandboxPort, jwtSecret, cluster.accountId),
      SHA224D_TEST_READ_ONLY_KEY: cluster.keys.read_only,
      SHA224D_TEST_FREE_KEY: await cluster.newKey({ plan: 'free' }),
    },
    close: () => cluster.close(),
  };
}

/** A distributed node makes no proof keys of its own (docs/proving.md): the target is given a log and a TSA key. */
function proofKeys(): Record<string, string> {
  const tsaKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return {
    LOG_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    TSA_KEY: tsaKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    TSA_CERT: selfSignedTsaCert(tsaKey, 'python-sdk test TSA', new Date()),
  };
}
