/**
 * `npm run bench:client [-- --quick] [-- --markdown]`: the client-side SHA-224 library
 * (api/clients/browser/dist, the shipped files) against @noble/hashes, js-sha256 (pure-JS build),
 * hash-wasm and, in Node, node:crypto, at 64 B, 1 KiB, 64 KiB and 1 MiB, in Node and in headless
 * Chromium. Prints MB/s (10^6 bytes/s, median round) and same-run ratios.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { hash as nodeHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSdk, DIST_DIR, DIST_FILES, GZIP_BUDGET_BYTES, sizes, type Built } from '../../api/clients/browser/build.js';
import { launchChromium, openPage, serveStatic } from '../helpers/chromium.js';
import { runBench, type BenchOptions, type SizeResult } from './client-harness.js';
import { OURS, PURE_JS_PEERS, peers } from './client-peers.js';
import type * as Sdk from '../../api/clients/browser/src/sha224.js';

const quick = process.argv.includes('--quick');
const markdown = process.argv.includes('--markdown');
const OPTIONS: BenchOptions = quick ? { rounds: 5, roundMs: 20, warmupMs: 200 } : { rounds: 15, roundMs: 40, warmupMs: 500 };

async function benchNode(): Promise<SizeResult[]> {
  const sdk = (await import(pathToFileURL(path.join(DIST_DIR, DIST_FILES.esm)).href)) as typeof Sdk;
  const check = (m: Uint8Array): string => nodeHash('sha224', m, 'hex');
  return runBench({ [OURS]: (m) => sdk.SHA224(m), ...(await peers()), 'node:crypto': check }, check, OPTIONS);
}

async function benchChromium(): Promise<{ version: string; results: SizeResult[] }> {
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, 'client-browser.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  const server = await serveStatic({
    '/': { type: 'text/html', body: '<!doctype html><script src="/sdk/sha224.min.js"></script><script src="/bench.js"></script>' },
    '/sdk/sha224.min.js': { type: 'text/javascript', body: readFileSync(path.join(DIST_DIR, DIST_FILES.iife)) },
    '/bench.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.text },
  });
  const browser = await launchChromium();
  try {
    const page = await openPage(browser, `${server.origin}/`);
    const results = await page.evaluate(
      (options) => (globalThis as unknown as { runClientBench: (o: BenchOptions) => Promise<SizeResult[]> }).runClientBench(options),
      OPTIONS,
    );
    return { version: browser.version(), results };
  } finally {
    await browser.close();
    await server.close();
  }
}

const fmtSize = (n: number): string => (n >= 1 << 20 ? `${n / (1 << 20)} MiB` : n >= 1024 ? `${n / 1024} KiB` : `${n} B`);

/**
 * One row per size: MB/s of each implementation, then ours ÷ each peer and ÷ the fastest pure-JS
 * peer. `pick` chooses the statistic: the median round, or the best round (closest to an idle machine).
 */
function table(title: string, results: SizeResult[], pick: (r: SizeResult) => Record<string, number>): string {
  const names = Object.keys(results[0]!.mbps);
  const peersOf = names.filter((n) => n !== OURS);
  const head = ['size', ...names.map((n) => `${n} MB/s`), ...peersOf.map((n) => `× ${n}`), '× fastest pure-JS'];
  const rows = results.map((result) => {
    const { size } = result;
    const mbps = pick(result);
    const ours = mbps[OURS]!;
    const bestPure = Math.max(...PURE_JS_PEERS.map((p) => mbps[p]!));
    return [
      fmtSize(size),
      ...names.map((n) => mbps[n]!.toFixed(0)),
      ...peersOf.map((n) => (ours / mbps[n]!).toFixed(2)),
      `**${(ours / bestPure).toFixed(2)}**`,
    ];
  });
  const lines = [
    `### ${title}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  return lines.join('\n');
}

const median = (r: SizeResult): Record<string, number> => r.mbps;
const best = (r: SizeResult): Record<string, number> => Object.fromEntries(Object.entries(r.samples).map(([n, s]) => [n, Math.max(...s)]));

function spread(results: SizeResult[]): string {
  return results
    .map(
      ({ size, samples }) =>
        `${fmtSize(size)}: ${Object.entries(samples)
          .map(([n, s]) => `${n} ${Math.min(...s).toFixed(0)}–${Math.max(...s).toFixed(0)}`)
          .join(', ')}`,
    )
    .join('\n');
}

const fresh = await buildSdk();
for (const [key, file] of Object.entries(DIST_FILES)) {
  if (readFileSync(path.join(DIST_DIR, file), 'utf8') !== fresh[key as keyof Built]) {
    console.warn(`warning: dist/${file} is stale; run npm run build:sdk`);
  }
}
const iife = sizes(fresh.iife);
const esmMin = sizes(fresh.esmMin);

const node = await benchNode();
const chromium = await benchChromium();
const chromiumTitle = `Chromium ${chromium.version} (headless)`;
const out = [
  table(`Node ${process.version}, median round`, node, median),
  '',
  table(`${chromiumTitle}, median round`, chromium.results, median),
  '',
  table(`Node ${process.version}, best round`, node, best),
  '',
  table(`${chromiumTitle}, best round`, chromium.results, best),
  '',
  `Bundle: dist/${DIST_FILES.iife} ${iife.bytes} B, ${iife.gzip} B gzip -9 (budget ${GZIP_BUDGET_BYTES} B), ${iife.brotli} B brotli; ` +
    `dist/${DIST_FILES.esmMin} (served as /sdk/sha224.mjs) ${esmMin.bytes} B, ${esmMin.gzip} B gzip -9, ${esmMin.brotli} B brotli.`,
  `Median of ${OPTIONS.rounds} interleaved rounds of ~${OPTIONS.roundMs} ms each; MB/s = 10^6 bytes/s; hex digest of a Uint8Array.`,
].join('\n');
console.log(out);
if (!markdown) console.log(`\nround spread (min–max MB/s)\nNode\n${spread(node)}\nChromium\n${spread(chromium.results)}`);
