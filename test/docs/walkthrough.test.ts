/**
 * README "Running distributed": the first-cluster walkthrough runs as printed on the machine's own
 * Redis and PostgreSQL, not in the docs runner's private namespaces (which cannot reach them). The
 * test changes only what must be its own so it can run beside other suites, each by replacing the
 * literal the README prints:
 *   - the PostgreSQL URL → a fresh schema's URL, so the first API node finds no accounts;
 *   - QUEUE_PREFIX=first → a fresh prefix, dropped afterwards;
 *   - ports 8080, 9091, 9092 → unused ones;
 *   - `npm run build` → nothing: the run's global setup built dist/, and rebuilding it under the
 *     feet of parallel suites could hand them half-written bundles.
 * The walkthrough must end by itself (its own `kill` and `wait`) within the time bound; whatever is
 * left of it is killed with its process group.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_BLOBS_WARNING } from '../../shared/blob/open.js';
import { sha224Hex } from '../helpers/digests.js';
import { pickUnusedPort } from '../helpers/ports.js';
import { ROOT } from '../helpers/spawn.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { createTestDatabase, type TestDatabase } from '../store/engines.js';
import { jsonValues } from './commands/answers.js';
import { shellBlocks } from './commands/extract.js';
import { runServiceScript } from './commands/service-script.js';

const MARKER = 'runs in test/docs/walkthrough.test.ts';
const TIME_BOUND_MS = 150_000;

const block = shellBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).find((b) => b.notRun?.startsWith(MARKER));
const prefix = freshPrefix();
let db: TestDatabase | undefined;
let tmp: string | undefined;

afterAll(async () => {
  await db?.cleanup();
  await dropPrefix(SHARED_REDIS_URL, prefix);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Replaces every occurrence of `from`, which must be there. */
function replace(text: string, from: string, to: string): string {
  expect(text, `the walkthrough prints ${from}`).toContain(from);
  return text.split(from).join(to);
}

describe('README "Running distributed": the first-cluster walkthrough', () => {
  it(
    'starts one API node and two workers, prints one key and a dashboard link, hashes, runs a job on a worker, stops',
    { timeout: TIME_BOUND_MS + 30_000 },
    async () => {
      expect(block, `a README block marked "not run: ${MARKER} …"`).toBeDefined();
      db = await createTestDatabase('postgres');
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-walkthrough-'));
      const [api, m1, m2] = [await pickUnusedPort(), await pickUnusedPort(), await pickUnusedPort()];
      let script = block!.code;
      script = replace(script, 'postgres://postgres@127.0.0.1:5432/postgres', `'${db.options.databaseUrl!}'`);
      script = replace(script, 'QUEUE_PREFIX=first', `QUEUE_PREFIX=${prefix}`);
      script = replace(script, '8080', String(api));
      script = replace(script, '9091', String(m1));
      script = replace(script, '9092', String(m2));
      script = replace(script, 'npm run build', ': npm run build');

      const { code, out } = await runServiceScript(script, {
        tmp,
        timeoutMs: TIME_BOUND_MS,
        env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      expect(code, out).toBe(0);
      expect(out).toContain(`sha224d api listening on http://127.0.0.1:${api}\n`);
      expect(out.match(/^API key: s224_\w+$/gm), out).toHaveLength(1);
      expect(out).toMatch(
        new RegExp(
          `^Dashboard: set the password of admin@localhost within 24 hours \\(the link works once\\): http://127\\.0\\.0\\.1:${api}/dashboard/set-password#token=s224l_\\S+$`,
          'm',
        ),
      );
      expect(out).toContain(
        '{"success":true,"hash":"23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7","encoding":"hex","algorithm":"SHA-224"',
      );
      const job = jsonValues(out).find((v) => (v as { status?: unknown }).status === 'completed') as
        { hash: string; job_id: string } | undefined;
      expect(job, out).toMatchObject({ success: true, filename: 'package.json', job_id: expect.any(String) });
      expect(job!.hash).toBe(sha224Hex(fs.readFileSync(path.join(ROOT, 'package.json'))));

      // Each node warned that its blobs are local (the walkthrough sets no S3_*).
      const [dataDir] = fs.readdirSync(tmp);
      const logs = ['api.log', 'worker-1.log', 'worker-2.log'].map((f) => fs.readFileSync(path.join(tmp!, dataDir!, f), 'utf8'));
      for (const log of logs) expect(log).toContain(LOCAL_BLOBS_WARNING);
    },
  );
});
