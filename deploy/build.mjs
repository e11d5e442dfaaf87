// Bundles the service's entry points to dist/ with esbuild (~0.1 s). Production runs plain node on
// the bundle: tsx's loader thread is a second V8 isolate, ~60 MB of RSS (measured: 160 MB idle
// under tsx, 101 MB bundled), which would eat the 200 MB budget of a 1 GiB /v2/stream upload.
// Packages stay external (resolved from node_modules at run time).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const entries = {
  embedded: 'deploy/embedded.ts',
  api: 'api/main.ts',
  worker: 'workers/main.ts',
  admin: 'deploy/admin/cli.ts',
};

await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Dynamic imports become chunks, so what one mode never uses (the AWS SDK in embedded mode, say) is never loaded.
  splitting: true,
  // Chunks stay in dist/ itself: code that builds paths from import.meta.dirname expects one level below the root.
  chunkNames: '[name]-[hash]',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  // dist/ sits one level below the root, like api/: paths built from import.meta.dirname hold.
  banner: { js: '// Built by deploy/build.mjs from the TypeScript sources; do not edit.' },
});

// The dashboard's pages (dist/dashboard/, api/dashboard/build.ts), which every API node serves
// under /dashboard: built here so `npm start`, `npm run api` and the tests never serve a stale or
// missing front-end. It is TypeScript that imports esbuild itself, so it runs under tsx.
execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'api', 'dashboard', 'build.ts')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
