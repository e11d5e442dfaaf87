/**
 * `npm run bench:webhooks [-- --jobs N] [--only embedded|distributed] [--rate R|auto] [--submitters C] [--events N] [--redis URL]`:
 * webhook delivery latency, from a job's completion to the moment the signed job.completed reaches
 * a loopback receiver (target: p50 ≤ 1 s over 1,000 jobs, docs/webhooks.md "Where delivery runs").
 *
 * The nodes run as `npm start`, or `npm run api` + `npm run worker`, run them (the dist/ bundles)
 * with their default configuration (WEBHOOK_POLL_MS 1000 included) and only what the bench must
 * choose: DATA_DIR, ports, the receiver's address in WEBHOOK_ALLOW_CIDRS, and for distributed mode
 * REDIS_URL (the machine's Redis under a queue prefix of this run's own, deleted after) and
 * SECRETS_KEY. Each job is a one-item POST /v2/batch?async=true; its completion time is the
 * payload's `timestamp`, which is checked against GET /v2/jobs/{id} (the job's own `timestamp`,
 * its finishedAt) for every job; the receipt time is the receiver's clock when the body has arrived.
 *
 * Two phases of `--jobs` each, on the same nodes:
 *  1. saturated: `--submitters` (1) send the jobs back to back, each as soon as the one before is
 *     accepted. The nodes share one core, so the jobs are accepted faster than they are run and
 *     delivered, a backlog grows, and the figure is mostly time queued behind it. Its throughput
 *     (jobs delivered a second, first submission to last receipt) is the deployment's capacity.
 *  2. sustained: jobs submitted open loop at `--rate` jobs/s (job i due at i/rate, whether or not
 *     the ones before were accepted). `auto` (the default) is half the capacity phase 1 measured,
 *     so the nodes' core is about half busy; the rate is printed. This is the target's figure:
 *     completion → receipt at a rate the deployment sustains.
 * In distributed mode a third phase measures the worker's CPU per delivery alone (`--events`, 0 to skip).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { createLogger } from '../../shared/log.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { closeRedis, createRedis } from '../../shared/queue/redis-connection.js';
import { BullMqWebhookProducer } from '../../shared/webhooks/bullmq.js';
import { openWebhookCore } from '../../shared/webhooks/open.js';
import { WebhookService } from '../../shared/webhooks/service.js';
import { dropPrefix } from '../queue/redis-helpers.js';
import { waitFor } from '../helpers/wait.js';
import { createTestDatabase, type TestDatabase } from '../store/engines.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { cpuMicros, freePort, placement, ROOT, ServerProcess } from './procs.js';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '1000' },
    only: { type: 'string' },
    submitters: { type: 'string', default: '1' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    events: { type: 'string', default: '1000' },
    rate: { type: 'string', default: 'auto' },
  },
});
const JOBS = Number(args.jobs);
const SUBMITTERS = Number(args.submitters);
const EVENTS = Number(args.events);
/** Jobs a second of the sustained phase; undefined: half the saturated phase's throughput. */
const RATE = args.rate === 'auto' ? undefined : Number(args.rate);
if (RATE !== undefined && !(RATE > 0)) throw new Error(`--rate must be a positive number or auto, not ${args.rate}`);
const TARGET_P50_MS = 1000;

type Mode = 'embedded' | 'distributed';

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

interface Setup {
  dataDir: string;
  /** Distributed mode: a PostgreSQL schema of its own, as the distributed tests use (two processes share the store). */
  database?: TestDatabase;
  accountId: string;
  apiKey: string;
}

async function prepare(workDir: string, mode: Mode): Promise<Setup> {
  const dataDir = path.join(workDir, mode);
  fs.mkdirSync(dataDir, { recursive: true });
  const database = mode === 'distributed' ? await createTestDatabase('postgres') : undefined;
  const store = await openStore({ dataDir, ...(database ? { database } : {}) });
  try {
    // Enterprise: no rate limit or quota, so no submission is refused and retried.
    const account = await store.createAccount({ name: `bench-${mode}`, plan: 'enterprise' });
    const { secret } = await createApiKey(store, { accountId: account.id, type: 'production', description: 'bench' });
    return { dataDir, ...(database ? { database } : {}), accountId: account.id, apiKey: secret };
  } finally {
    await store.close();
  }
}

function openStore(setup: Pick<Setup, 'dataDir' | 'database'>): Promise<KyselyAccountStore> {
  return createStore(setup.database?.options ?? { sqlitePath: path.join(setup.dataDir, 'sha224d.sqlite') });
}

function only<T>(text: string | undefined, all: readonly T[]): T[] {
  return text === undefined ? [...all] : all.filter((m) => text.split(',').includes(String(m)));
}

function node(name: string, entry: 'embedded' | 'api' | 'worker', env: Record<string, string>, ready: RegExp, logDir: string) {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'];
  const base = Object.fromEntries(keep.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k]]])));
  return ServerProcess.start({
    name,
    command: process.execPath,
    args: [path.join(ROOT, 'dist', `${entry}.js`)],
    env: { ...base, ...env },
    ready,
    logDir,
  });
}

async function startMode(
  mode: Mode,
  setup: Setup,
  workDir: string,
): Promise<{ url: string; procs: ServerProcess[]; prefix?: string; cleanup(): Promise<void> }> {
  const common = { DATA_DIR: setup.dataDir, PORT: '0', WEBHOOK_ALLOW_CIDRS: '127.0.0.1' };
  if (mode === 'embedded') {
    const proc = await node('embedded', 'embedded', common, /listening on (http:\/\/\S+)/, workDir);
    return { url: proc.url, procs: [proc], cleanup: () => Promise.resolve() };
  }
  const prefix = `bench-hooks-${randomBytes(4).toString('hex')}`;
  const env = {
    ...common,
    DATABASE_URL: setup.database?.options.databaseUrl ?? '',
    REDIS_URL: args.redis,
    QUEUE_PREFIX: prefix,
    SECRETS_KEY: secretsKey,
  };
  const api = await node('api', 'api', env, /listening on (http:\/\/\S+)/, workDir);
  const worker = await node('worker', 'worker', { ...env, METRICS_PORT: String(await freePort()) }, /worker ready/, workDir);
  return {
    url: api.url,
    procs: [api, worker],
    prefix,
    async cleanup() {
      await dropPrefix(args.redis, prefix);
      await setup.database?.cleanup();
    },
  };
}

const secretsKey = randomBytes(32).toString('hex');

async function createEndpoint(mode: Mode, setup: Setup, url: string): Promise<string> {
  const store = await openStore(setup);
  try {
    const core = await openWebhookCore(
      {
        mode,
        dataDir: setup.dataDir,
        // Embedded: the key file the node wrote at its start.
        SECRETS_KEY: mode === 'distributed' ? secretsKey : undefined,
        SECRETS_KEY_PREVIOUS: undefined,
        WEBHOOK_ALLOW_CIDRS: '127.0.0.1',
        WEBHOOK_RETRY_SCHEDULE: '0',
        WEBHOOK_TIMEOUT_MS: 15_000,
        WEBHOOK_DISABLE_AFTER_DAYS: 5,
        WEBHOOK_SECRET_OVERLAP_HOURS: 24,
      },
      store.db,
      createLogger('silent'),
    );
    if (core === undefined) throw new Error('webhooks are off');
    const service = new WebhookService({ store: core.store, box: core.box, schedule: () => Promise.resolve(), secretOverlapMs: 0 });
    const { secret } = await service.createEndpoint({ accountId: setup.accountId, url, eventTypes: ['job.completed', 'job.failed'] });
    return secret;
  } finally {
    await store.close();
  }
}

async function submitOne(base: string, apiKey: string, i: number): Promise<string> {
  const res = await fetch(`${base}/v2/batch?async=true`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ id: 'a', data: `webhook bench ${i}` }] }),
  });
  const body = (await res.json()) as { job_id?: string };
  if (res.status !== 202 || body.job_id === undefined) throw new Error(`submission ${i}: ${res.status} ${JSON.stringify(body)}`);
  return body.job_id;
}

/** Saturated: SUBMITTERS loops, each sending its next job as soon as its last was accepted. */
async function submitBackToBack(base: string, apiKey: string, offset: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SUBMITTERS }, async () => {
      while (next < JOBS) {
        const i = next++;
        ids.push(await submitOne(base, apiKey, offset + i));
      }
    }),
  );
  return ids;
}

/** Sustained: job i sent when due (start + i/rate), open loop: a slow acceptance does not delay the next. */
async function submitAtRate(base: string, apiKey: string, offset: number, rate: number): Promise<string[]> {
  const start = performance.now();
  const sent: Promise<string>[] = [];
  for (let i = 0; i < JOBS; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(submitOne(base, apiKey, offset + i));
  }
  return Promise.all(sent);
}

async function waitForAll(rx: Receiver, path: string, count: number, timeoutMs: number): Promise<void> {
  await waitFor(() => rx.received.filter((r) => r.path === path).length >= count, {
    timeoutMs,
    intervalMs: 50,
    what: `${count} deliveries`,
  });
}

/** The job's own finish time as GET /v2/jobs/{id} reports it, to check the payload's timestamp against. */
async function finishedAt(base: string, apiKey: string, id: string): Promise<string> {
  const res = await fetch(`${base}/v2/jobs/${id}`, { headers: { 'X-API-Key': apiKey } });
  const body = (await res.json()) as { status?: string; timestamp?: string };
  if (res.status !== 200 || body.status !== 'completed' || body.timestamp === undefined)
    throw new Error(`job ${id}: ${JSON.stringify(body)}`);
  return body.timestamp;
}

/**
 * The worker's CPU per delivery alone (/proc, user + system): `--events` finished-job events added
 * straight to the webhook queue, as a worker's finisher adds them, with no job to run first; they are
 * added one after another as fast as Redis takes them, so the worker runs flat out and the rate is
 * its delivery capacity for one endpoint.
 */
async function workerCpuPerDelivery(
  worker: ServerProcess,
  prefix: string,
  accountId: string,
  rx: Receiver,
  hookPath: string,
  before: number,
) {
  const redis = createRedis(args.redis, 'producer', { logger: createLogger('silent') });
  const producer = new BullMqWebhookProducer(redis, prefix);
  try {
    const cpu0 = cpuMicros(worker.pid);
    const t0 = performance.now();
    const finishedAt = Date.now();
    for (let i = 0; i < EVENTS; i++) await producer.event({ id: `cpu-${i}`, kind: 'batch', accountId, state: 'completed', finishedAt }, {});
    await waitForAll(rx, hookPath, before + EVENTS, 300_000);
    const seconds = (performance.now() - t0) / 1000;
    const perDelivery = Math.round((cpuMicros(worker.pid) - cpu0) / EVENTS);
    process.stdout.write(
      `  worker alone: ${EVENTS} events added one after another, all delivered in ${seconds.toFixed(2)} s (${Math.round(EVENTS / seconds)}/s); worker CPU µs per delivery ${perDelivery} (load average ${loadAverage()})\n`,
    );
  } finally {
    await producer.close();
    await closeRedis(redis);
  }
}

interface Phase {
  /** Throughput from the first submission to the last receipt, jobs/s. */
  deliveredPerSecond: number;
}

/**
 * One phase: `submit` sends JOBS jobs; waits for their deliveries, verifies each, and prints
 * completion → receipt percentiles and each node's CPU per job.
 */
async function phase(
  label: string,
  mode: Mode,
  started: { url: string; procs: ServerProcess[] },
  setup: Setup,
  rx: Receiver,
  hookPath: string,
  secret: string,
  submit: () => Promise<string[]>,
): Promise<Phase> {
  const before = rx.received.filter((r) => r.path === hookPath).length;
  const cpuBefore = started.procs.map((p) => cpuMicros(p.pid));
  const t0 = performance.now();
  const ids = await submit();
  const submitSeconds = (performance.now() - t0) / 1000;
  await waitForAll(rx, hookPath, before + JOBS, 300_000);
  const drainSeconds = (performance.now() - t0) / 1000;
  // CPU per job of each node (/proc, user + system), from the first submission to the last receipt.
  const cpuPerJob = started.procs.map((p, i) => `${p.name} ${Math.round((cpuMicros(p.pid) - (cpuBefore[i] ?? 0)) / JOBS)}`);
  const load = loadAverage();
  const got = rx.received.filter((r) => r.path === hookPath).slice(before);
  const verifier = new Webhook(secret);
  const byJob = new Map<string, { timestamp: string; at: number }>();
  for (const r of got) {
    const event = verifier.verify(r.body, r.headers) as { type: string; timestamp: string; data: { job_id: string } };
    if (event.type !== 'job.completed') throw new Error(`unexpected ${event.type}`);
    if (byJob.has(event.data.job_id)) throw new Error(`job ${event.data.job_id} delivered twice`);
    byJob.set(event.data.job_id, { timestamp: event.timestamp, at: r.at });
  }
  const latencies: number[] = [];
  for (const id of ids) {
    const seen = byJob.get(id);
    if (seen === undefined) throw new Error(`job ${id} never delivered`);
    const finished = await finishedAt(started.url, setup.apiKey, id);
    if (finished !== seen.timestamp) throw new Error(`job ${id}: payload timestamp ${seen.timestamp}, job finished ${finished}`);
    latencies.push(seen.at - Date.parse(seen.timestamp));
  }
  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const line = [
    `${mode}, ${label}: ${JOBS} jobs submitted in ${submitSeconds.toFixed(2)} s (${Math.round(JOBS / submitSeconds)}/s), all delivered after ${drainSeconds.toFixed(2)} s (${Math.round(JOBS / drainSeconds)}/s);`,
    `completion → receipt ms: min ${latencies[0]} p50 ${p50} p95 ${percentile(latencies, 95)} p99 ${percentile(latencies, 99)} max ${latencies.at(-1)};`,
    `CPU µs per job: ${cpuPerJob.join(', ')};`,
    `p50 ≤ ${TARGET_P50_MS} ms: ${p50 <= TARGET_P50_MS ? 'yes' : 'no'}`,
    `(load average ${load})`,
  ];
  process.stdout.write(`${line.join(' ')}\n`);
  return { deliveredPerSecond: JOBS / drainSeconds };
}

async function run(mode: Mode, workDir: string, rx: Receiver): Promise<void> {
  const setup = await prepare(workDir, mode);
  const started = await startMode(mode, setup, workDir);
  try {
    const hookPath = `/${mode}`;
    const secret = await createEndpoint(mode, setup, rx.url(hookPath));
    const saturated = await phase(
      `saturated (${SUBMITTERS} submitter${SUBMITTERS === 1 ? '' : 's'} back to back; queueing, not the target's figure)`,
      mode,
      started,
      setup,
      rx,
      hookPath,
      secret,
      () => submitBackToBack(started.url, setup.apiKey, 0),
    );
    const rate = RATE ?? Math.max(1, Math.floor(saturated.deliveredPerSecond / 2));
    const why = RATE === undefined ? `auto: half the ${Math.round(saturated.deliveredPerSecond)}/s of the saturated phase` : '--rate';
    await phase(`sustained at ${rate} jobs/s (${why}; the target's figure)`, mode, started, setup, rx, hookPath, secret, () =>
      submitAtRate(started.url, setup.apiKey, JOBS, rate),
    );
    const worker = started.procs.find((p) => p.name === 'worker');
    if (worker !== undefined && started.prefix !== undefined && EVENTS > 0)
      await workerCpuPerDelivery(
        worker,
        started.prefix,
        setup.accountId,
        rx,
        hookPath,
        rx.received.filter((r) => r.path === hookPath).length,
      );
  } finally {
    await Promise.all(started.procs.map((p) => p.stop()));
    await started.cleanup();
  }
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-hooks-'));
execFileSync(process.execPath, [path.join(ROOT, 'deploy', 'build.mjs')], { stdio: 'inherit' });
process.stdout.write(`webhook delivery latency; ${placement()}, receiver and submitters in this process\n`);
const rx = await startReceiver();
try {
  for (const mode of only(args.only, ['embedded', 'distributed'] as const)) await run(mode, workDir, rx);
} finally {
  await rx.close();
  if (process.env.BENCH_KEEP === undefined) fs.rmSync(workDir, { recursive: true, force: true });
  else process.stdout.write(`kept ${workDir}\n`);
}
