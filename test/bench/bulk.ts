/**
 * `npm run bench:bulk [-- --items N --rate R --seconds S --chunk-items N --worker-nice N --targets 1,2,3]`: bulk jobs (docs/api.md "Bulk jobs") on
 * a distributed set as test/bulk/distributed.test.ts runs it: an API node (dist/api.js) and bulk
 * workers (dist/worker.js) on the machine's Redis under a fresh QUEUE_PREFIX, a fresh PostgreSQL
 * schema, s3rver for the blobs. N items of 64 bytes (default 1,000,000) as NDJSON; checked against:
 *
 *   1. items per worker CPU-second ≥ 0.8× a bare Node process doing the same per item (parse,
 *      decode, node:crypto sha224, write the line: bulk-reference.mjs), measured in this run;
 *   2. wall time with 2 workers ≤ 0.6× with 1 worker (only where each worker has a core of its own;
 *      the CPU-seconds are printed beside it so a shared machine's figure can be judged);
 *   3. /v2/hash p99 at a fixed rate rises ≤ 25 % while a bulk job runs beside it.
 *
 * A job's wall time runs from its 202 to the job read back completed, after a warm-up job; a
 * worker's CPU is read from /proc/<pid>/stat from before its POST to its completion.
 * `--chunk-items N` sets the API node's BULK_CHUNK_ITEMS, `--worker-nice N` the workers' WORKER_BULK_NICE,
 * `--targets 1,3` runs only those measurements (an A/B of one figure); BENCH_WORKER_NODE_FLAGS node flags
 * of the workers. The /v2/hash load of 3. runs 2 s unmeasured first, so "alone" is not a cold API node.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster, type Cluster } from '../helpers/cluster.js';
import { spawnNode, type SpawnedProcess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { fixedRateLoad } from './fixed-rate.js';
import { cpuMicros, ROOT, runPinned } from './procs.js';

const TARGET = { perCpuRatio: 0.8, twoWorkersWall: 0.6, p99Rise: 0.25 };
const DATA_BYTES = 64;

interface Options {
  items: number;
  rate: number;
  seconds: number;
  chunkItems: number | undefined;
  /** WORKER_BULK_NICE of the workers (`--worker-nice N`, 0-19). */
  workerNice: number;
  /** Which of the three measurements to run (`--targets 1,3`: an A/B of the first and third only). */
  targets: Set<number>;
}

function parse(argv: string[]): Options {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!;
    const value = argv[i + 1];
    if (!name.startsWith('--') || value === undefined)
      throw new Error('usage: bulk.ts [--items N] [--rate R] [--seconds S] [--chunk-items N] [--worker-nice N] [--targets 1,2,3]');
    flags.set(name.slice(2), value);
  }
  const nice = (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 19) throw new Error('--worker-nice must be an integer from 0 to 19');
    return n;
  };
  const int = (name: string, fallback: number): number => {
    const n = Number(flags.get(name) ?? fallback);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  return {
    items: int('items', 1_000_000),
    rate: int('rate', 200),
    seconds: int('seconds', 6),
    // BULK_CHUNK_ITEMS of the API node, to try another (the service's default otherwise).
    chunkItems: flags.has('chunk-items') ? int('chunk-items', 1) : undefined,
    workerNice: nice(flags.get('worker-nice') ?? '0'),
    targets: new Set(
      (flags.get('targets') ?? '1,2,3').split(',').map((t) => {
        if (!['1', '2', '3'].includes(t)) throw new Error('--targets is a comma-separated subset of 1,2,3');
        return Number(t);
      }),
    ),
  };
}

/** Item n: 64 bytes of utf8 text, distinct per item. */
const itemData = (n: number): string => `item ${String(n).padStart(10, '0')} `.padEnd(DATA_BYTES, 'x');

function writeItems(file: string, count: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (let start = 0; start < count; start += 10_000) {
      let piece = '';
      for (let n = start; n < Math.min(count, start + 10_000); n++) piece += `{"id":"i${n}","data":"${itemData(n)}"}\n`;
      fs.writeSync(fd, piece);
    }
  } finally {
    fs.closeSync(fd);
  }
}

interface JobRun {
  id: string;
  wallSeconds: number;
  cpuSecondsByWorker: number[];
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');

class Bench {
  readonly workers: SpawnedProcess[] = [];
  constructor(
    readonly cluster: Cluster,
    readonly key: string,
    readonly itemsFile: string,
    readonly items: number,
    readonly warmFile: string,
    readonly warmItems: number,
    readonly workerNice: number,
  ) {}

  get url(): string {
    return this.cluster.url(0);
  }

  async submit(file: string): Promise<string> {
    const res = await fetch(`${this.url}/v2/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': this.key, 'content-type': 'application/x-ndjson' },
      body: fs.createReadStream(file) as unknown as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const body = (await res.json()) as { id?: string };
    if (res.status !== 202 || body.id === undefined) throw new Error(`POST /v2/bulk answered ${res.status} ${JSON.stringify(body)}`);
    return body.id;
  }

  async status(id: string): Promise<{ status: string; items: { total: number; done: number; failed: number } }> {
    const res = await fetch(`${this.url}/v2/bulk/${id}`, { headers: { 'x-api-key': this.key } });
    return (await res.json()) as { status: string; items: { total: number; done: number; failed: number } };
  }

  async startWorkers(count: number): Promise<void> {
    // BENCH_WORKER_NODE_FLAGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, for a profile of the bulk workers.
    const flags = (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
    const entry = path.join(ROOT, 'dist', 'worker.js');
    while (this.workers.length < count)
      this.workers.push(
        spawnNode('worker', [...flags, '--enable-source-maps', entry], {
          ...this.cluster.env,
          WORKER_BULK: 'true',
          WORKER_BULK_NICE: String(this.workerNice),
        }),
      );
    await Promise.all(this.workers.map((w) => w.waitFor(/worker ready/)));
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.stop('SIGTERM')));
  }

  async completed(id: string, items: number): Promise<void> {
    const last = await waitFor(
      async () => {
        const status = await this.status(id);
        if (status.status === 'failed' || status.status === 'cancelled') throw new Error(`bulk job ${id} ${status.status}`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 600_000, intervalMs: 50, what: `bulk job ${id} to complete` },
    );
    if (last.items.done !== items || last.items.failed !== 0) throw new Error(`bulk job ${id}: ${JSON.stringify(last.items)}`);
  }

  /**
   * Starts `count` workers and warms them with a small job (module loading, the blob store's first
   * connection: once per process, not per item), then times a job of all the items from its 202
   * (the API node queues the chunks once the whole body is stored) to its completion.
   */
  async run(count: number, during?: () => Promise<void>): Promise<JobRun> {
    await this.startWorkers(count);
    await this.completed(await this.submit(this.warmFile), this.warmItems);
    const before = this.workers.map((w) => cpuMicros(w.pid));
    const id = await this.submit(this.itemsFile);
    const started = performance.now();
    const side = during?.();
    await this.completed(id, this.items);
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuSecondsByWorker = this.workers.map((w, i) => (cpuMicros(w.pid) - before[i]!) / 1e6);
    await side;
    await this.stopWorkers();
    return { id, wallSeconds, cpuSecondsByWorker };
  }

  /** The first and last result lines equal node:crypto's digest (the whole file is checked by test/bulk). */
  async check(id: string): Promise<void> {
    const text = await (await fetch(`${this.url}/v2/bulk/${id}/results`, { headers: { 'x-api-key': this.key } })).text();
    const lines = text.split('\n').filter(Boolean);
    if (lines.length !== this.items) throw new Error(`${lines.length} result lines, expected ${this.items}`);
    for (const n of [0, this.items - 1]) {
      const line = JSON.parse(lines[n]!) as { id: string; hash: string };
      const expected = createHash('sha224').update(itemData(n)).digest('hex');
      if (line.id !== `i${n}` || line.hash !== expected) throw new Error(`line ${n}: ${lines[n]}, expected ${expected}`);
    }
  }
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const loadNow = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-bulk-'));
  execFileSync(process.execPath, [path.join(ROOT, 'deploy', 'build.mjs')], { stdio: 'inherit' });
  const itemsFile = path.join(workDir, 'items.ndjson');
  writeItems(itemsFile, options.items);
  // Two chunks: one for each worker of the two-worker run.
  const warmItems = Math.min(options.items, 2 * (options.chunkItems ?? 10_000));
  const warmFile = path.join(workDir, 'warm.ndjson');
  writeItems(warmFile, warmItems);
  console.log(
    `sha224d bulk benchmark: ${options.items} items of ${DATA_BYTES} B (${(fs.statSync(itemsFile).size / 1e6).toFixed(1)} MB NDJSON), ` +
      `chunks of ${options.chunkItems ?? 'the default'} items, workers at nice ${options.workerNice}, ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at the start\n`,
  );
  const cluster = await startCluster({
    apiNodes: 1,
    workers: 0,
    env: {
      WORKER_BULK: 'false',
      LOG_LEVEL: 'warn',
      ...(options.chunkItems ? { BULK_CHUNK_ITEMS: String(options.chunkItems) } : {}),
    },
  });
  const bench = new Bench(
    cluster,
    await cluster.newKey({ plan: 'enterprise' }),
    itemsFile,
    options.items,
    warmFile,
    warmItems,
    options.workerNice,
  );
  let allMet = true;
  try {
    // 1. The bare reference, then one worker on the same items (the one-worker run is 2.'s baseline too).
    let one: JobRun | undefined;
    if (options.targets.has(1) || options.targets.has(2)) {
      const ref = JSON.parse(
        await runPinned('load', process.execPath, [
          path.join(ROOT, 'test', 'bench', 'bulk-reference.mjs'),
          itemsFile,
          path.join(workDir, 'ref.out'),
        ]),
      ) as { items: number; seconds: number; cpu_micros: number };
      const refPerCpu = ref.items / (ref.cpu_micros / 1e6);
      one = await bench.run(1);
      await bench.check(one.id);
      const onePerCpu = options.items / sum(one.cpuSecondsByWorker);
      const ratio = onePerCpu / refPerCpu;
      allMet &&= ratio >= TARGET.perCpuRatio;
      console.log(
        `1. items per worker CPU-second: 1 worker ${onePerCpu.toFixed(0)} (${sum(one.cpuSecondsByWorker).toFixed(2)} CPU-s), ` +
          `bare Node ${refPerCpu.toFixed(0)} (${(ref.cpu_micros / 1e6).toFixed(2)} CPU-s, ${ref.seconds.toFixed(2)} s): ` +
          `${ratio.toFixed(3)}× (target ≥ ${TARGET.perCpuRatio}×) ${verdict(ratio >= TARGET.perCpuRatio)}; load average ${loadNow()}`,
      );
    }

    // 2. Two workers on the same job.
    if (one !== undefined && options.targets.has(2)) {
      const two = await bench.run(2);
      const wallRatio = two.wallSeconds / one.wallSeconds;
      allMet &&= wallRatio <= TARGET.twoWorkersWall;
      console.log(
        `2. wall time: 1 worker ${one.wallSeconds.toFixed(2)} s, 2 workers ${two.wallSeconds.toFixed(2)} s: ${wallRatio.toFixed(3)}× ` +
          `(target ≤ ${TARGET.twoWorkersWall}×) ${verdict(wallRatio <= TARGET.twoWorkersWall)}; worker CPU-s 1 worker ` +
          `${sum(one.cpuSecondsByWorker).toFixed(2)}, 2 workers ${two.cpuSecondsByWorker.map((s) => s.toFixed(2)).join(' + ')}; ` +
          `load average ${loadNow()} (${os.cpus().length} cores shared with other work)`,
      );
    }

    // 3. /v2/hash p99 at a fixed rate, without and with a bulk job (1 worker) beside it.
    if (options.targets.has(3)) {
      const load = () =>
        fixedRateLoad({ url: `${bench.url}/v2/hash`, body: JSON.stringify({ data: itemData(0) }), apiKey: bench.key, ...options });
      // A first stretch unmeasured: the API node's /v2/hash path compiled, its connections open, as in the run beside the job.
      await fixedRateLoad({
        url: `${bench.url}/v2/hash`,
        body: JSON.stringify({ data: itemData(0) }),
        apiKey: bench.key,
        rate: options.rate,
        seconds: Math.min(2, options.seconds),
      });
      const quiet = await load();
      let busy: Awaited<ReturnType<typeof load>> | undefined;
      const beside = await bench.run(1, async () => {
        busy = await load();
      });
      const rise = busy!.p99Ms / quiet.p99Ms - 1;
      const overlap = Math.min(1, beside.wallSeconds / options.seconds);
      allMet &&= rise <= TARGET.p99Rise;
      console.log(
        `3. /v2/hash at ${options.rate} req/s for ${options.seconds} s: p99 ${quiet.p99Ms.toFixed(2)} ms alone, ${busy!.p99Ms.toFixed(2)} ms ` +
          `beside a bulk job (p50 ${quiet.p50Ms.toFixed(2)} → ${busy!.p50Ms.toFixed(2)} ms; ${quiet.errors + busy!.errors} errors; ` +
          `the job ran ${(overlap * 100).toFixed(0)} % of the load): ${rise >= 0 ? '+' : ''}${(rise * 100).toFixed(1)} % (target ≤ +${TARGET.p99Rise * 100} %) ` +
          `${verdict(rise <= TARGET.p99Rise)}; load average ${loadNow()}`,
      );
    }
    console.log(
      `\nload average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await bench.stopWorkers();
    await cluster.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  console.log(allMet ? 'every target met' : 'a target was missed');
  process.exitCode = allMet ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
