import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { dropRunSchemas, TEST_RUN_ENV } from './store/engines.js';

/**
 * Build dist/ once: process tests spawn exactly what `npm start`, `npm run api` and `npm run worker`
 * run. The TypeScript client's dist/ too: its tests run the built SDK, CLI and packed tarball.
 * Name the run, so its PostgreSQL schemas can be dropped together when it ends.
 */
export default function setup(): () => Promise<void> {
  const root = path.join(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'deploy', 'build.mjs')], { stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'api', 'clients', 'typescript', 'scripts', 'build.mjs')], { stdio: 'inherit' });

  // The run's PostgreSQL schemas are dropped at its end, not as each file ends (test/store/engines.ts).
  const run = randomBytes(4).toString('hex');
  process.env[TEST_RUN_ENV] = run;
  return async () => {
    try {
      await dropRunSchemas(run);
    } catch (err) {
      // No PostgreSQL (a run of SQLite-only files): there is nothing to drop.
      if ((err as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw err;
    }
  };
}
