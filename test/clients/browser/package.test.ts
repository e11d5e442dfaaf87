/**
 * The client library as a package, the way a user gets it: `npm pack` of api/clients/browser,
 * installed offline into a fresh project, then
 * - type-checked and compiled by TypeScript under NodeNext and under Bundler resolution (the ESM
 *   types through `exports`, the globals through `@sha224d/sha224/global`), with lines that must
 *   not type-check, so types that resolved to `any` fail the test;
 * - run in Node through the package's `exports`;
 * - loaded in headless Chromium from a `<script>` tag and as a module through an import map,
 *   under a CSP that allows only same-origin scripts (and the import map by its hash).
 * A screenshot of the page is saved under artifacts/ (git-ignored).
 */
import { execFile } from 'node:child_process';
import { createHash, createHmac, hash as nodeHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_DIR, DIST_FILES, PACKAGE_DIR } from '../../../api/clients/browser/build.js';
import { launchChromium, serveStatic, type StaticServer } from '../../helpers/chromium.js';

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const ARTIFACTS = path.join(import.meta.dirname, '..', '..', '..', 'artifacts', 'client-library');
const PKG = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; version: string };

/** npm with none of the calling npm's settings (a parent `npm test` exports its prefix and cache). */
function npmEnv(cache: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...env, npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

/** The consumer project's sources: what a user of the package writes. */
const SOURCES: Record<string, string> = {
  // Runs in Node and in the browser; every value is checked against node:crypto by the test.
  'src/esm.mts': `
import SHA224Default, { SHA224, SHA224Class, HmacSHA224, sha224, type Encoding, type Message, type SHA224Function } from '@sha224d/sha224';

const message: Message = [97, 98, 99];
const encoding: Encoding = 'base64';
const library: SHA224Function = SHA224Default;
const context: SHA224Class = new SHA224Class().update('a').update(new Uint8Array([98, 99]));
const fork: SHA224Class = context.clone().update('!');
const bytes: Uint8Array = SHA224('abc', 'bytes');
const mac: HmacSHA224 = SHA224.hmac.create('key').update('mess');
const spent = new SHA224Class();
spent.destroy();
let destroyed = 'no error';
try {
  spent.update('x');
} catch (error) {
  destroyed = String(error);
}

export const results = {
  call: SHA224('abc'),
  hash: SHA224.hash('abc'),
  classHash: SHA224Class.hash(message),
  context: context.digest(),
  fork: fork.digest(),
  base64: SHA224('abc', encoding),
  bytes: bytes.length,
  verify: [SHA224.verify('abc', SHA224('abc').toUpperCase()), SHA224.verify('abd', SHA224('abc'))],
  hmac: SHA224.hmac('key', 'message'),
  hmacIncremental: mac.update('age').digest(),
  hmacClass: new HmacSHA224('key').update('message').digest(),
  same: library === SHA224 && sha224 === SHA224 && SHA224.SHA224Class === SHA224Class,
  destroyed,
};
`,
  // Type-checked only: each line must be an error, or the types are too loose (or missing).
  'src/negative.mts': `
import { SHA224, SHA224Class } from '@sha224d/sha224';

// @ts-expect-error a number is not a message
SHA224(42);
// @ts-expect-error not an encoding
SHA224('abc', 'utf8');
// @ts-expect-error a hex digest is a string, not bytes
export const wrong: Uint8Array = new SHA224Class().digest();
// @ts-expect-error private state is not part of the API
new SHA224Class().state;
// @ts-expect-error verify returns a boolean
export const notString: string = SHA224.verify('abc', '00');
// @ts-expect-error the library object is read-only
SHA224.hash = SHA224;
`,
  'src/page.mts': `
import { results } from './esm.mjs';

document.getElementById('module')!.textContent = JSON.stringify(results, null, 1);
`,
  // A classic script: no imports, the IIFE's globals typed by @sha224d/sha224/global.
  'src/script.ts': `/// <reference types="@sha224d/sha224/global" />
const typed: SHA224Class = new SHA224Class().update('a').update('bc');
document.getElementById('script')!.textContent = JSON.stringify(
  {
    call: SHA224('abc'),
    hash: SHA224.hash('abc'),
    classHash: SHA224Class.hash('abc'),
    context: typed.digest(),
    verify: SHA224.verify('abc', SHA224('abc').toUpperCase()),
    hmac: SHA224.hmac.create('key').update('message').digest(),
    globals: typeof globalThis.SHA224 + ' ' + typeof window.SHA224Class,
  },
  null,
  1,
);
`,
};

const tsconfig = (module: string, moduleResolution: string, outDir: string): string =>
  JSON.stringify({
    compilerOptions: {
      module,
      moduleResolution,
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false, // the package's own .d.mts / .d.ts are checked too
      types: [],
      rootDir: 'src',
      outDir,
    },
    include: ['src'],
  });

const ABC = nodeHash('sha224', 'abc', 'hex');
const HMAC = createHmac('sha224', 'key').update('message').digest('hex');

describe('the packed client library in a fresh project', () => {
  let dir: string;
  let tarball: string;
  let packedFiles: string[];
  let browser: Browser | undefined;
  let server: StaticServer | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sha224d-package-'));
    const env = npmEnv(path.join(dir, '.npm-cache'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PACKAGE_DIR, env });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(dir, packed!.filename);
    packedFiles = packed!.files.map((f) => f.path).sort();

    const project = path.join(dir, 'project');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    for (const [file, text] of Object.entries(SOURCES)) writeFileSync(path.join(project, file), text);
    writeFileSync(path.join(project, 'tsconfig.nodenext.json'), tsconfig('NodeNext', 'NodeNext', 'out/nodenext'));
    writeFileSync(path.join(project, 'tsconfig.bundler.json'), tsconfig('ESNext', 'Bundler', 'out/bundler'));
    await run('npm', ['install', '--offline', '--no-package-lock', tarball], { cwd: project, env });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const project = (): string => path.join(dir, 'project');

  it('packs exactly the built files, package.json and README; the installed copies are the committed dist', () => {
    expect(path.basename(tarball)).toBe(`sha224d-sha224-${PKG.version}.tgz`);
    expect(packedFiles).toEqual(
      [
        'README.md',
        'package.json',
        `dist/${DIST_FILES.dts}`,
        `dist/${DIST_FILES.globalDts}`,
        `dist/${DIST_FILES.iife}`,
        `dist/${DIST_FILES.esmMin}`,
        `dist/${DIST_FILES.esm}`,
      ].sort(),
    );
    const installed = path.join(project(), 'node_modules', '@sha224d', 'sha224');
    for (const file of Object.values(DIST_FILES)) {
      expect(readFileSync(path.join(installed, 'dist', file), 'utf8'), file).toBe(readFileSync(path.join(DIST_DIR, file), 'utf8'));
    }
  });

  for (const mode of ['nodenext', 'bundler'] as const) {
    it(`type-checks and compiles under ${mode === 'nodenext' ? 'NodeNext' : 'Bundler'} resolution (module types and global types)`, async () => {
      const result = await run(process.execPath, [TSC, '-p', `tsconfig.${mode}.json`], { cwd: project() }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      expect(result.stdout).toBe('');
      expect(result.code).toBe(0);
    }, 60_000);
  }

  it('a consumer without the types would fail: the negative file is checked, not skipped', async () => {
    // Same project, types of the package removed: every import then is TS7016 (implicitly any).
    const copy = path.join(dir, 'untyped');
    mkdirSync(copy);
    await run('cp', [
      '-r',
      path.join(project(), 'src'),
      path.join(project(), 'node_modules'),
      path.join(project(), 'tsconfig.nodenext.json'),
      copy,
    ]);
    rmSync(path.join(copy, 'node_modules', '@sha224d', 'sha224', 'dist', DIST_FILES.dts));
    const failure = await run(process.execPath, [TSC, '-p', 'tsconfig.nodenext.json', '--noEmit'], { cwd: copy }).then(
      () => 'compiled',
      (error: { stdout: string }) => error.stdout,
    );
    expect(failure).toMatch(/src\/negative\.mts.*error TS/);
  }, 60_000);

  it('runs in Node through the exports map; internal paths are not exported', async () => {
    const script = `
      const { results } = await import('./out/nodenext/esm.mjs');
      const min = await import('@sha224d/sha224/sha224.min.mjs');
      const pkg = await import('@sha224d/sha224/package.json', { with: { type: 'json' } });
      const iife = import.meta.resolve('@sha224d/sha224/sha224.min.js');
      const hidden = await import('@sha224d/sha224/dist/sha224.mjs').then(() => 'exported', (e) => e.code);
      console.log(JSON.stringify({ results, min: min.SHA224('abc'), version: pkg.default.version, iife, hidden }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project() });
    const got = JSON.parse(stdout) as { results: Record<string, unknown>; min: string; version: string; iife: string; hidden: string };
    expect(got.results).toEqual({
      call: ABC,
      hash: ABC,
      classHash: ABC,
      context: ABC,
      fork: nodeHash('sha224', 'abc!', 'hex'),
      base64: nodeHash('sha224', 'abc', 'base64'),
      bytes: 28,
      verify: [true, false],
      hmac: HMAC,
      hmacIncremental: HMAC,
      hmacClass: HMAC,
      same: true,
      destroyed: 'Error: digest() or destroy() already called',
    });
    expect(got).toMatchObject({ min: ABC, version: PKG.version, hidden: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    expect(got.iife).toMatch(/\/node_modules\/@sha224d\/sha224\/dist\/sha224\.min\.js$/);
  });

  it('works from a <script> tag and as a module in Chromium, under a same-origin-only CSP', async () => {
    const installed = (file: string): Buffer => readFileSync(path.join(project(), 'node_modules', '@sha224d', 'sha224', 'dist', file));
    const compiled = (file: string): string => readFileSync(path.join(project(), 'out', 'bundler', file), 'utf8');
    const importMap = JSON.stringify({ imports: { '@sha224d/sha224': '/node_modules/@sha224d/sha224/dist/sha224.mjs' } });
    const mapHash = createHash('sha256').update(importMap).digest('base64');
    const js = (body: string | Buffer) => ({ type: 'text/javascript', body });
    expect(compiled('script.js')).not.toMatch(/\bexport\b|\bimport\b/); // a classic script
    server = await serveStatic({
      '/': {
        type: 'text/html; charset=utf-8',
        headers: { 'content-security-policy': `default-src 'none'; script-src 'self' 'sha256-${mapHash}'` },
        body: [
          '<!doctype html><meta charset="utf-8"><title>@sha224d/sha224 from the packed tarball</title>',
          '<h1>@sha224d/sha224</h1><p>&lt;script src&gt; (the IIFE, globals SHA224 and SHA224Class):</p><pre id="script"></pre>',
          '<p>ES module (import map → dist/sha224.mjs):</p><pre id="module"></pre>',
          '<script src="/node_modules/@sha224d/sha224/dist/sha224.min.js"></script>',
          '<script src="/out/script.js"></script>',
          `<script type="importmap">${importMap}</script>`,
          '<script type="module" src="/out/page.mjs"></script>',
        ].join('\n'),
      },
      '/node_modules/@sha224d/sha224/dist/sha224.min.js': js(installed(DIST_FILES.iife)),
      '/node_modules/@sha224d/sha224/dist/sha224.mjs': js(installed(DIST_FILES.esm)),
      '/out/script.js': js(compiled('script.js')),
      '/out/page.mjs': js(compiled('page.mjs')),
      '/out/esm.mjs': js(compiled('esm.mjs')),
    });
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => document.getElementById('module')?.textContent !== '', undefined, { timeout: 15_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'package-in-chromium.png'), fullPage: true });

    const text = async (id: string): Promise<unknown> => JSON.parse((await page.textContent(`#${id}`)) ?? 'null');
    expect(problems).toEqual([]);
    expect(await text('script')).toEqual({
      call: ABC,
      hash: ABC,
      classHash: ABC,
      context: ABC,
      verify: true,
      hmac: HMAC,
      globals: 'function function',
    });
    expect(await text('module')).toMatchObject({ call: ABC, hash: ABC, context: ABC, hmacIncremental: HMAC, same: true });
  }, 60_000);
});
