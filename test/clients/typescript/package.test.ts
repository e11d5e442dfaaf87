/**
 * The packed tarball as a user gets it: `npm pack` of the workspace installs into a fresh project
 * (from the npm cache where it can), its typed calls and the README's examples compile under `strict` (and misuse does not), the compiled program
 * hashes against a live server, and its `sha224d` bin runs. The browser build imports nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sha224Hex } from '../../helpers/digests.js';
import { ROOT } from '../../helpers/spawn.js';
import { CLIENT_DIR, startEmbedded, type EmbeddedServer } from './helpers.js';

let server: EmbeddedServer;
let project: string;
const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

const PROGRAM = `
import { AuthenticationError, Sha224dClient, type HashResponse, type JobStatus, type UploadProgress } from '@sha224d/client';

const client = new Sha224dClient({ apiKey: process.env.SHA224D_API_KEY!, baseUrl: process.env.SHA224D_URL! });
const hashed: HashResponse = await client.v2.hash({ data: 'abc', output: 'hex' });
const seen: UploadProgress[] = [];
const uploaded = await client.upload(new Blob(['abc']), { onProgress: (p) => seen.push(p) });
const usage = await client.v1.usage();
const quota: number = usage.account.quota.daily;
const job = await client.jobs.submit('batch', { items: [{ id: 'a', data: 'abc' }] });
const done = await client.jobs.wait(job.job_id, { via: 'poll' });
const state: JobStatus['status'] = done.status;
try {
  await new Sha224dClient({ apiKey: 's224_wrong', baseUrl: process.env.SHA224D_URL!, retry: false }).v2.hash({ data: 'x' });
} catch (err) {
  if (!(err instanceof AuthenticationError) || err.status !== 401) throw err;
}
/** Never called: each line must fail to compile. */
export function misuse(): void {
  // @ts-expect-error output is one of hex, base64, binary
  void client.v2.hash({ data: 'abc', output: 'md5' });
  // @ts-expect-error data is required
  void client.v2.verify({ hash: 'x' });
  // @ts-expect-error a credential is an apiKey, bearerToken or tokenSource
  void new Sha224dClient({ key: 'x' });
}
console.log(JSON.stringify({ hash: hashed.hash, upload: uploaded.hash, sent: seen.at(-1)?.sent, quota, state }));
`;

beforeAll(async () => {
  server = await startEmbedded();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-pack-'));
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(project, { recursive: true, force: true });
});

it('the browser build has no imports at all (no Node built-ins, no dependencies)', () => {
  const browser = fs.readFileSync(path.join(CLIENT_DIR, 'dist', 'index.js'), 'utf8');
  expect(browser).not.toMatch(/\bimport\s*\(|\bfrom\s*["']|\brequire\(/);
});

it('npm pack installs into a fresh project; its typed calls compile under strict and run', () => {
  // dist/ was built by the test run's global setup from these sources; --ignore-scripts keeps
  // `prepack` from rebuilding it under the feet of the other test files that run it.
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: CLIENT_DIR,
    env: npmEnv,
    encoding: 'utf8',
  });
  const tarball = path.join(project, (JSON.parse(packed) as Array<{ filename: string }>)[0]!.filename);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh', private: true, type: 'module' }));
  // --prefer-offline: `npm ci` caches tarballs but not the registry documents that resolving the
  // tarball's dependency ranges needs, so those may come from the registry.
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: project,
    env: npmEnv,
    encoding: 'utf8',
  });
  expect(install.status, install.stderr).toBe(0);
  // No install script in the manifest: npm would warn about it (and its scripts/ is not packed).
  expect(install.stderr).not.toMatch(/install-scripts|prepare/);
  const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/@sha224d/client/package.json'), 'utf8')) as {
    files: string[];
    scripts: Record<string, string>;
  };
  expect(installed.files).toContain('dist');
  expect(Object.keys(installed.scripts).filter((s) => /^(?:pre|post)?(?:install|prepare)$/.test(s))).toEqual([]);
  expect(fs.existsSync(path.join(project, 'node_modules/ws'))).toBe(false); // optional peers stay optional

  fs.writeFileSync(path.join(project, 'main.ts'), PROGRAM);
  // The package README's TypeScript examples, each a module of the fresh project: compiled, not run.
  const readme = fs.readFileSync(path.join(CLIENT_DIR, 'README.md'), 'utf8');
  const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m, i) => {
    fs.writeFileSync(path.join(project, `readme-${i}.ts`), m[1]!);
    return `readme-${i}.ts`;
  });
  expect(examples.length).toBeGreaterThanOrEqual(7);
  fs.writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules', '@types')],
        outDir: 'out',
      },
      files: ['main.ts', ...examples],
    }),
  );
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, stdio: 'pipe' });

  const runEnv = { ...npmEnv, SHA224D_API_KEY: server.key, SHA224D_URL: server.url };
  // The README's "Running an example" on Node 20: its first example saved as example.mts, run by tsx.
  fs.copyFileSync(path.join(project, examples[0]!), path.join(project, 'example.mts'));
  const tsx = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['example.mts'], {
    cwd: project,
    env: { ...runEnv, SHA224D_JWT: 'header.payload.signature' },
    encoding: 'utf8',
  });
  expect({ status: tsx.status, stderr: tsx.stderr }).toEqual({ status: 0, stderr: '' });
  const output = execFileSync(process.execPath, ['out/main.js'], { cwd: project, env: runEnv, encoding: 'utf8' });
  expect(JSON.parse(output)).toEqual({ hash: sha224Hex('abc'), upload: sha224Hex('abc'), sent: 3, quota: -1, state: 'completed' });
  const bin = execFileSync(path.join(project, 'node_modules/.bin/sha224d'), ['hash', 'abc'], {
    cwd: project,
    env: runEnv,
    encoding: 'utf8',
  });
  expect(bin).toBe(`${sha224Hex('abc')}\n`);
}, 120_000);
