/**
 * deploy/cluster.sh on ports the caller chooses: BASE_PORT for the API nodes, METRICS_BASE_PORT for
 * the workers' /metrics listeners and S3_PORT for its s3rver, each printed in its closing line; on a
 * fresh database the first API node prints a key that hashes. SIGTERM stops the whole set.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pickUnusedPort } from '../helpers/ports.js';
import { ROOT } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { createTestDatabase, type TestDatabase } from '../store/engines.js';

const prefix = freshPrefix();
let db: TestDatabase | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-cluster-sh-'));

afterAll(async () => {
  await db?.cleanup();
  await dropPrefix(SHARED_REDIS_URL, prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const answers = async (url: string): Promise<number | undefined> => {
  try {
    return (await fetch(url)).status;
  } catch {
    return undefined;
  }
};

describe('deploy/cluster.sh', () => {
  it(
    'listens where BASE_PORT, METRICS_BASE_PORT and S3_PORT say, and says so; the first API node prints a key',
    { timeout: 120_000 },
    async () => {
      db = await createTestDatabase('postgres');
      const [base, metrics, s3] = [await pickUnusedPort(), await pickUnusedPort(), await pickUnusedPort()];
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        BASE_PORT: String(base),
        METRICS_BASE_PORT: String(metrics),
        S3_PORT: String(s3),
        DATABASE_URL: db.options.databaseUrl!,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        CLUSTER_BUILD: 'false',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      };
      delete env.S3_ENDPOINT;
      const child = spawn('bash', ['deploy/cluster.sh', '1', '1'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        await waitFor(() => /^API key: s224_\w+$/m.test(out), { timeoutMs: 60_000, what: `a key in:\n${out}` });
        expect(out).toContain(
          `API nodes on ports ${base}..${base}; 1 workers (metrics on ${metrics}..${metrics}); S3 at http://127.0.0.1:${s3}.`,
        );
        const key = /^API key: (s224_\w+)$/m.exec(out)![1]!;
        const hashed = await fetch(`http://127.0.0.1:${base}/v2/hash`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: '{"data":"abc"}',
        });
        expect(hashed.status).toBe(200);
        expect(await waitFor(() => answers(`http://127.0.0.1:${metrics}/healthz`), { timeoutMs: 30_000, what: 'the worker' })).toBe(200);
        expect(await answers(`http://127.0.0.1:${s3}/`)).toBe(200);
        expect(fs.readdirSync(path.join(dataDir, 's3rver'))).toContain('sha224d');
        child.kill('SIGTERM');
        expect(await exited).not.toBeNull();
      } finally {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone with its children.
        }
      }
    },
  );
});
