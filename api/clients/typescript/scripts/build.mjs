// Builds dist/ (~1 s): esbuild bundles the browser build (index.js: no Node built-ins, no
// dependencies), the Node build (node.js) and the CLI (cli.js, with the client-side SHA-224
// library of --local inlined); tsc writes the type declarations. dist/ is not committed: `npm pack`
// runs this (the package's prepack script), and so does the repository's `npm ci` (the root's
// prepare script; the package has none, as npm would copy it into the tarball's manifest).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const dist = path.join(root, 'dist');
fs.rmSync(dist, { recursive: true, force: true });

const common = { absWorkingDir: root, bundle: true, format: 'esm', logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: { index: 'src/index.ts' }, outdir: 'dist', platform: 'neutral', target: 'es2022' }),
  build({ ...common, entryPoints: { node: 'src/node.ts' }, outdir: 'dist', platform: 'node', target: 'node20', packages: 'external' }),
  build({ ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', platform: 'node', target: 'node20', packages: 'external' }),
]);

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc', { paths: [root, path.join(root, '..', '..', '..')] });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
