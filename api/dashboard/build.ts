/**
 * Builds the dashboard's front-end (`npm run build`) into dist/dashboard/:
 *   assets/app.<hash>.js, assets/app.<hash>.css   the page code and styles (and the icon), content-
 *   assets/favicon.<hash>.svg                     hashed, so they can be cached for a year (immutable)
 *   index.html                                    the one page shell every /dashboard/* path serves
 *   consent.html                                  the OAuth consent template (consent-page.ts fills it)
 *   oauth-error.html                              its refusals' template (oauth-error-page.ts fills it)
 *   manifest.json                                 each file with its SRI integrity
 *   *.gz, *.br                                    every file precompressed (gzip -9, brotli 11)
 * No inline script or style anywhere, so the pages run under
 * `default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'; form-action 'self'`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const WEB_DIR = path.join(import.meta.dirname, 'web');
export const DEFAULT_OUT_DIR = path.join(import.meta.dirname, '..', '..', 'dist', 'dashboard');
/** Where the files are served from (the shell and the consent page refer to assets by this path). */
export const PUBLIC_PATH = '/dashboard';
export const TEMPLATES = ['index.html', 'consent.html', 'oauth-error.html'] as const;

export interface BuiltFile {
  path: string;
  bytes: number;
  gzip: number;
  brotli: number;
  integrity: string;
}

function hashed(name: string, ext: string, content: Uint8Array): string {
  return `${name}.${createHash('sha256').update(content).digest('hex').slice(0, 12)}.${ext}`;
}

function write(outDir: string, rel: string, content: Uint8Array, files: BuiltFile[]): void {
  const full = path.join(outDir, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  const gz = gzipSync(content, { level: 9 });
  const br = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(full, content);
  writeFileSync(`${full}.gz`, gz);
  writeFileSync(`${full}.br`, br);
  files.push({
    path: rel,
    bytes: content.length,
    gzip: gz.length,
    brotli: br.length,
    integrity: `sha384-${createHash('sha384').update(content).digest('base64')}`,
  });
}

export async function buildDashboard(outDir: string = DEFAULT_OUT_DIR): Promise<BuiltFile[]> {
  const result = await build({
    absWorkingDir: WEB_DIR,
    entryPoints: { app: 'src/main.ts', styles: 'styles/app.css' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    platform: 'browser',
    outdir: 'out',
    logLevel: 'silent',
    tsconfig: path.join(WEB_DIR, 'tsconfig.json'),
    legalComments: 'none',
  });
  const out = (ext: string) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(`.${ext}`));
    if (!file) throw new Error(`dashboard build: no .${ext} output`);
    return file.contents;
  };
  rmSync(outDir, { recursive: true, force: true });
  const files: BuiltFile[] = [];
  const js = `assets/${hashed('app', 'js', out('js'))}`;
  const css = `assets/${hashed('app', 'css', out('css'))}`;
  const iconSource = readFileSync(path.join(WEB_DIR, 'favicon.svg'));
  const icon = `assets/${hashed('favicon', 'svg', iconSource)}`;
  write(outDir, js, out('js'), files);
  write(outDir, css, out('css'), files);
  write(outDir, icon, iconSource, files);
  const integrity = Object.fromEntries(files.map((f) => [f.path, f.integrity]));
  for (const template of TEMPLATES) {
    const html = readFileSync(path.join(WEB_DIR, template), 'utf8')
      .replaceAll('{{app.js}}', `${PUBLIC_PATH}/${js}`)
      .replaceAll('{{app.js.integrity}}', integrity[js]!)
      .replaceAll('{{app.css}}', `${PUBLIC_PATH}/${css}`)
      .replaceAll('{{app.css.integrity}}', integrity[css]!)
      .replaceAll('{{favicon}}', `${PUBLIC_PATH}/${icon}`);
    write(outDir, template, Buffer.from(html, 'utf8'), files);
  }
  const manifest = { publicPath: PUBLIC_PATH, files: files.map(({ path: p, integrity: i, bytes }) => ({ path: p, integrity: i, bytes })) };
  writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return files;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = await buildDashboard(process.argv[2] ? path.resolve(process.argv[2]) : DEFAULT_OUT_DIR);
  for (const f of files) process.stdout.write(`dist/dashboard/${f.path}: ${f.bytes} B, ${f.gzip} B gzip, ${f.brotli} B brotli\n`);
}
