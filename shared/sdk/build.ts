/**
 * Builds the client-side SHA-224 library (`npm run build:sdk`) into the committed artifacts:
 *   dist/sha224.mjs     ESM, readable (consumers' bundlers minify it)
 *   dist/sha224.min.js  minified IIFE defining the global SHA224 (served at /sdk/sha224.min.js)
 *   dist/sha224.d.ts    types, generated from the source declarations
 * and prints the gzipped size of the IIFE. test/sdk/build.test.ts rebuilds and compares, so the
 * committed dist cannot go stale.
 */
import { build, type BuildOptions } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';

export const SDK_DIR = import.meta.dirname;
export const DIST_DIR = path.join(SDK_DIR, 'dist');
export const DIST_FILES = { esm: 'sha224.mjs', iife: 'sha224.min.js', dts: 'sha224.d.ts' } as const;

/** The budget for the gzipped IIFE, "2.5 KB" read strictly as 2,500 bytes (noble's SHA-224 path: 2.8 KB). */
export const GZIP_BUDGET_BYTES = 2500;

const BANNER = '/*! sha224d client-side SHA-224 | MIT */';

// ES2020 is the floor: Chrome/Edge 80, Firefox 74, Safari 14, Node 14, Deno, workers.
const COMMON: BuildOptions = {
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

function only(result: { outputFiles?: Array<{ text: string }> }): string {
  const [file, ...rest] = result.outputFiles ?? [];
  if (!file || rest.length > 0) throw new Error('esbuild: expected exactly one output file');
  return file.text;
}

function declarations(file: string): string {
  const fileName = path.join(SDK_DIR, file);
  const result = ts.transpileDeclaration(readFileSync(fileName, 'utf8'), {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext, strict: true },
  });
  if (result.diagnostics?.length) {
    throw new Error(`${file}: ${result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`);
  }
  return result.outputText;
}

/**
 * One self-contained declaration file: the public types (types.ts) followed by the API's
 * declarations (sha224.ts) without its imports of them. Any other import would leave the file
 * unresolvable, so it fails the build.
 */
function buildTypes(): string {
  const api = declarations('sha224.ts').split('\n').filter((line) => !line.includes(`from './types.js'`));
  const stray = api.find((line) => /^\s*(import|export)\b.*\bfrom\b/.test(line));
  if (stray) throw new Error(`sha224.d.ts would import another file: ${stray}`);
  return `${BANNER}\n${declarations('types.ts')}${api.join('\n')}`;
}

export async function buildSdk(): Promise<{ esm: string; iife: string; dts: string; gzipBytes: number }> {
  const [esm, iife] = await Promise.all([
    build({ ...COMMON, entryPoints: [path.join(SDK_DIR, 'sha224.ts')], format: 'esm', banner: { js: BANNER } }).then(only),
    build({
      ...COMMON,
      // Publishing from a side-effect entry, not with globalName, leaves out esbuild's module-namespace helpers.
      stdin: { contents: `import { SHA224 } from './sha224.js'; globalThis.SHA224 = SHA224;`, resolveDir: SDK_DIR, sourcefile: 'iife.ts', loader: 'ts' },
      format: 'iife',
      minify: true,
      // No banner: at ~45 gzipped bytes it was the cheapest cut to fit the size budget.
      // SHA224Class's private members, which nothing outside the bundle can reach.
      mangleProps: /^(state|block|pos|total|pending|finished|flushPending|absorb)$/,
    }).then(only),
  ]);
  return { esm, iife, dts: buildTypes(), gzipBytes: gzipSync(iife, { level: 9 }).length };
}

async function main(): Promise<void> {
  const { esm, iife, dts, gzipBytes } = await buildSdk();
  mkdirSync(DIST_DIR, { recursive: true });
  writeFileSync(path.join(DIST_DIR, DIST_FILES.esm), esm);
  writeFileSync(path.join(DIST_DIR, DIST_FILES.iife), iife);
  writeFileSync(path.join(DIST_DIR, DIST_FILES.dts), dts);
  console.log(`dist/${DIST_FILES.esm} ${esm.length} B, dist/${DIST_FILES.iife} ${iife.length} B, gzip -9 ${gzipBytes} B (budget ${GZIP_BUDGET_BYTES} B)`);
  if (gzipBytes > GZIP_BUDGET_BYTES) {
    console.error('over the gzipped size budget');
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
