import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Build dist/ once: process tests spawn exactly what `npm start`, `npm run api` and `npm run worker` run. */
export default function setup(): void {
  execFileSync(process.execPath, [path.join(import.meta.dirname, '..', 'deploy', 'build.mjs')], { stdio: 'inherit' });
}
