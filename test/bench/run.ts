/**
 * `npm run bench`: throughput and latency of the service, each printed as a ratio against a bare
 * Express route measured in the same run on the same machine (issue 3 §9, issue 6 §6).
 *
 *   - /v2/hash through the inline path (API node hashes) and through the queue path
 *     (INLINE_MAX_BYTES=0: BullMQ round trip to a worker);
 *   - /v2/file jobs/s (1 MiB files) with 1 and with 2 workers;
 *   - WebSocket hash messages/s on 1 and 16 connections.
 *
 * Needs Redis on 127.0.0.1:6379 (or BENCH_REDIS_URL). Servers run as separate processes (the
 * dist/ bundles `npm run api` and `npm run worker` run), the load generator here.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createStore } from '../../shared/store/kysely-store.js';
import { multipartBody, runLoad, type LoadResult } from './load.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Proc { child: ChildProcess; url?: string }

function start(file: string, env: Record<string, string>, args: string[] = [], ready = /listening on (http:\/\/\S+)|worker ready/): Promise<Proc> {
  const child = spawn(process.execPath, [path.join(ROOT, file), ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (c: Buffer): void => {
      out += c.toString();
      const m = ready.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${file} exited (${code}): ${out}`)));
  });
}

function stop(p: Proc): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });
}

function line(name: string, r: LoadResult, base: LoadResult, unit = 'req/s'): string {
  const ratio = r.perSecond / base.perSecond;
  return `${name.padEnd(42)} ${r.perSecond.toFixed(0).padStart(8)} ${unit.padEnd(9)} p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p99 ${r.p99Ms.toFixed(2).padStart(7)} ms  ${ratio.toFixed(3)}× bare${r.errors ? `  (${r.errors} errors)` : ''}`;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'deploy', 'build.mjs')], { stdio: 'inherit' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-'));
  const store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
  const account = await store.createAccount({ name: 'bench', plan: 'enterprise' });
  const { secret } = await createApiKey(store, { accountId: account.id, type: 'production', description: 'bench' });
  await store.close();
  const prefix = `bench${Date.now()}`;
  const common = { DATA_DIR: dataDir, REDIS_URL, QUEUE_PREFIX: prefix, PORT: '0', BOOTSTRAP_ADMIN: 'false' };
  const procs: Proc[] = [];
  const track = async (p: Promise<Proc>): Promise<Proc> => {
    const proc = await p;
    procs.push(proc);
    return proc;
  };

  try {
    const json = { 'content-type': 'application/json' };
    const auth = { ...json, 'x-api-key': secret };
    const body = JSON.stringify({ data: 'The quick brown fox jumps over the lazy dog, 64 bytes of input.!' });
    const load = (origin: string, p: string, headers: Record<string, string>, b: string | Buffer = body) => runLoad({ origin, path: p, headers, body: b, concurrency: CONCURRENCY, durationMs: DURATION_MS });

    console.log(`sha224d benchmark — ${os.cpus().length} cores, ${CONCURRENCY} concurrent connections, ${DURATION_MS / 1000} s per run\n`);
    const bare = await track(start('test/bench/bare-server.mjs', {}));
    const inlineApi = await track(start('dist/api.js', common));
    const queueApi = await track(start('dist/api.js', { ...common, INLINE_MAX_BYTES: '0' }));
    const worker1 = await track(start('dist/worker.js', common, ['--queues', 'hash,file', '--concurrency', '8']));

    await load(bare.url!, '/bare', json); // warm-up
    const baseline = await load(bare.url!, '/bare', json);
    console.log(line('bare Express route (baseline)', baseline, baseline));
    await load(inlineApi.url!, '/v2/hash', auth);
    console.log(line('/v2/hash, inline path (64 B)', await load(inlineApi.url!, '/v2/hash', auth), baseline));
    await load(queueApi.url!, '/v2/hash', auth);
    console.log(line('/v2/hash, queue path (64 B, 1 worker)', await load(queueApi.url!, '/v2/hash', auth), baseline));

    const file = multipartBody(randomBytes(1024 * 1024));
    const fileHeaders = { 'x-api-key': secret, 'content-type': file.contentType };
    const fileLoad = () => runLoad({ origin: inlineApi.url!, path: '/v2/file', headers: fileHeaders, body: file.body, concurrency: 8, durationMs: DURATION_MS });
    await fileLoad();
    console.log(line('/v2/file 1 MiB, 1 worker', await fileLoad(), baseline, 'jobs/s'));
    await track(start('dist/worker.js', common, ['--queues', 'file', '--concurrency', '8']));
    console.log(line('/v2/file 1 MiB, 2 workers', await fileLoad(), baseline, 'jobs/s'));
    await stop(worker1);

    const wsModule = path.join(ROOT, 'test', 'bench', 'ws.ts');
    if (fs.existsSync(wsModule)) {
      const { benchWebSocket } = (await import(pathToFileURL(wsModule).href)) as { benchWebSocket: (o: { url: string; apiKey: string }) => Promise<Array<{ name: string; opsPerSec: number }>> };
      for (const r of await benchWebSocket({ url: inlineApi.url!, apiKey: secret })) {
        console.log(`${r.name.padEnd(42)} ${r.opsPerSec.toFixed(0).padStart(8)} msg/s    ${(r.opsPerSec / baseline.perSecond).toFixed(3)}× bare`);
      }
    }
  } finally {
    await Promise.all(procs.map(stop));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
