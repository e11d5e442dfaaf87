/**
 * Builds the client-side SHA-224 library (`npm run build:sdk`) into the committed dist/:
 *   sha224.mjs          ESM, readable (consumers' bundlers minify it)
 *   sha224.min.mjs      ESM, minified: what the service serves at /sdk/sha224.mjs
 *   sha224.min.js       IIFE defining the globals SHA224 and SHA224Class (/sdk/sha224.min.js)
 *   sha224.d.mts        types of the ESM, generated from the source declarations
 *   sha224.global.d.ts  types of the two globals, for <script> users
 *   *.min.{js,mjs}.gz, .br  the served files precompressed (gzip -9, brotli 11); not in the package
 * and prints the sizes. test/clients/browser/build.test.ts rebuilds and compares, so the committed
 * dist cannot go stale.
 */
import { build, type BuildOptions } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import ts from 'typescript';

export const PACKAGE_DIR = import.meta.dirname;
export const SRC_DIR = path.join(PACKAGE_DIR, 'src');
export const DIST_DIR = path.join(PACKAGE_DIR, 'dist');
export const DIST_FILES = {
  esm: 'sha224.mjs',
  esmMin: 'sha224.min.mjs',
  iife: 'sha224.min.js',
  dts: 'sha224.d.mts',
  globalDts: 'sha224.global.d.ts',
} as const;
/** The files served under /sdk/, each with a .gz and a .br beside it. */
export const SERVED_FILES = [DIST_FILES.iife, DIST_FILES.esmMin] as const;

/** "2.5 KB" gzipped for the IIFE, read strictly as 2,500 bytes (noble's SHA-224 path: 2.8 KB). */
export const GZIP_BUDGET_BYTES = 2500;

const BANNER = '/*! sha224d client-side SHA-224 | MIT */';

/** Source files whose declarations make up sha224.d.mts, in dependency order. */
const DECLARATION_SOURCES = ['types.ts', 'context.ts', 'hmac.ts', 'sha224.ts'];

// ES2020 is the floor: Chrome/Edge 80, Firefox 74, Safari 14, Node 14, Deno, workers.
const COMMON: BuildOptions = {
  // Relative to the package, so the module comments in sha224.mjs do not depend on the cwd.
  absWorkingDir: PACKAGE_DIR,
  bundle: true,
  write: false,
  target: 'es2020',
  platform: 'neutral',
  charset: 'utf8',
  logLevel: 'silent',
  // Class fields as constructor assignments: ES2022 define semantics would pull in esbuild's
  // __publicField helper at this target.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
};

const MINIFY: BuildOptions = {
  minify: true,
  // The classes' private members, which nothing outside the bundle can reach.
  mangleProps: /^(state|block|pos|total|pending|finished|reset|check|flushPending|absorb|inner|outer)$/,
};

export interface Built {
  esm: string;
  esmMin: string;
  iife: string;
  dts: string;
  globalDts: string;
}

export interface Sizes {
  bytes: number;
  gzip: number;
  brotli: number;
}

function only(result: { outputFiles?: Array<{ text: string }> }): string {
  const [file, ...rest] = result.outputFiles ?? [];
  if (!file || rest.length > 0) throw new Error('esbuild: expected exactly one output file');
  return file.text;
}

function declarations(file: string): string {
  const fileName = path.join(SRC_DIR, file);
  const result = ts.transpileDeclaration(readFileSync(fileName, 'utf8'), {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext, strict: true, stripInternal: true },
  });
  if (result.diagnostics?.length) {
    throw new Error(`${file}: ${result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  }
  return result.outputText;
}

/**
 * One self-contained declaration file: each source's declarations in dependency order, without
 * the imports and re-exports between them. Any other import would leave the file unresolvable,
 * so it fails the build.
 */
function buildTypes(): string {
  const lines = DECLARATION_SOURCES.flatMap((file) => declarations(file).split('\n')).filter(
    (line) => !/^(import|export)\b.*\bfrom '\.\/[a-z0-9-]+\.js';$/.test(line) && line !== 'export {};',
  );
  const stray = lines.find((line) => /^\s*(import|export)\b.*\bfrom\b/.test(line));
  if (stray) throw new Error(`${DIST_FILES.dts} would import another file: ${stray}`);
  return `${BANNER}\n${lines.join('\n')}`;
}

/** The globals the IIFE defines, typed from the ESM's declarations so the two cannot disagree. */
const GLOBAL_TYPES = `${BANNER}
/**
 * Types of the globals that ${DIST_FILES.iife} defines, for code that loads it with a <script> tag:
 *   /// <reference types="@sha224d/sha224/global" />
 * (or "types": ["@sha224d/sha224/global"] in tsconfig.json).
 */
import type * as Lib from './${DIST_FILES.esm}';

declare global {
  /** SHA224(message): the SHA-224 hex digest; also .hash, .verify, .hmac and .SHA224Class. */
  var SHA224: Lib.SHA224Function;
  /** The incremental SHA-224 context: new SHA224Class().update(message).digest(). */
  var SHA224Class: typeof Lib.SHA224Class;
  type SHA224Class = Lib.SHA224Class;
}

export {};
`;

export async function buildSdk(): Promise<Built> {
  const entry = path.join(SRC_DIR, 'sha224.ts');
  const [esm, esmMin, iife] = await Promise.all([
    build({ ...COMMON, entryPoints: [entry], format: 'esm', banner: { js: BANNER } }).then(only),
    // No banner in the minified files: at ~45 gzipped bytes it was the cheapest cut to fit the size budget.
    build({ ...COMMON, ...MINIFY, entryPoints: [entry], format: 'esm' }).then(only),
    build({
      ...COMMON,
      ...MINIFY,
      // Publishing from a side-effect entry, not with globalName, leaves out esbuild's module-namespace helpers.
      stdin: {
        contents: `import { SHA224, SHA224Class } from './sha224.js'; globalThis.SHA224 = SHA224; globalThis.SHA224Class = SHA224Class;`,
        resolveDir: SRC_DIR,
        sourcefile: 'iife.ts',
        loader: 'ts',
      },
      format: 'iife',
    }).then(only),
  ]);
  return { esm, esmMin, iife, dts: buildTypes(), globalDts: GLOBAL_TYPES };
}

export function gzip(data: string | Uint8Array): Buffer {
  return gzipSync(data, { level: 9 });
}

export function brotli(data: string | Uint8Array): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

export function sizes(code: string): Sizes {
  return { bytes: Buffer.byteLength(code), gzip: gzip(code).length, brotli: brotli(code).length };
}

async function main(): Promise<void> {
  const built = await buildSdk();
  mkdirSync(DIST_DIR, { recursive: true });
  for (const [key, file] of Object.entries(DIST_FILES)) writeFileSync(path.join(DIST_DIR, file), built[key as keyof Built]);
  for (const file of SERVED_FILES) {
    const code = readFileSync(path.join(DIST_DIR, file));
    writeFileSync(path.join(DIST_DIR, `${file}.gz`), gzip(code));
    writeFileSync(path.join(DIST_DIR, `${file}.br`), brotli(code));
  }
  const line = (file: string, s: Sizes): string => `dist/${file} ${s.bytes} B, gzip -9 ${s.gzip} B, brotli ${s.brotli} B`;
  const iife = sizes(built.iife);
  console.log(`dist/${DIST_FILES.esm} ${Buffer.byteLength(built.esm)} B`);
  console.log(line(DIST_FILES.esmMin, sizes(built.esmMin)));
  console.log(`${line(DIST_FILES.iife, iife)} (gzip budget ${GZIP_BUDGET_BYTES} B)`);
  if (iife.gzip > GZIP_BUDGET_BYTES) {
    console.error('over the gzipped size budget');
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
