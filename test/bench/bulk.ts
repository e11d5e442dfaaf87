/**
 * `npm run bench:bulk [-- --items N --rate R --seconds S --rounds N --chunk-items N --worker-nice N
 * --beside-nice 19,0 --beside-items N --s3-nice N --generator-nice N --targets 1,2,3]`: bulk jobs (docs/api.md "Bulk
 * jobs") on a distributed set as test/bulk/distributed.test.ts runs it: an API node (dist/api.js)
 * and bulk workers (dist/worker.js) on the machine's Redis under a fresh QUEUE_PREFIX, a fresh
 * PostgreSQL schema, s3rver for the blobs. N items of 64 bytes (default 1,000,000) as NDJSON;
 * checked against:
 *
 *   1. items per worker CPU-second ≥ 0.8× a bare Node process doing the same per item (parse,
 *      decode, node:crypto sha224, write the line: bulk-reference.mjs), measured in this run;
 *   2. wall time with 2 workers ≤ 0.6× with 1 worker (only where each worker has a core of its own;
 *      the CPU-seconds are printed beside it so a shared machine's figure can be judged);
 *   3. /v2/hash p99 at a fixed rate rises ≤ 25 % while a bulk job runs beside it, on the median of
 *      `--rounds` (5) alone/beside pairs in ABBA order (test/bench/bulk-rounds.ts says why the
 *      median of per-pair rises), with the worker at each `--beside-nice` value (19,0); the verdict
 *      is the first one's: 19, the setting README "Running distributed" gives a worker that shares
 *      its host with an API node (`idle`: the worker under SCHED_IDLE, `chrt --idle 0`). The job
 *      beside the load has `--beside-items` (2,000,000) items so it outlasts each window and is
 *      cancelled after it (test/bench/bulk-beside.ts). A round of two settings takes about 70 s
 *      here, most of it the POST of that job (15–35 s each on 2 shared cores).
 *
 * Placement. Everything shares the machine's cores, unpinned. s3rver stands in for S3, a remote
 * service in production, so it runs at nice `--s3-nice` (19): below the API node and the worker
 * it serves, it takes only the CPU they leave (it still answers: a worker waiting on it is idle).
 * Redis and PostgreSQL are the machine's own, not started here, and keep their priority. The load
 * generator of 3. stands for clients on other machines: it runs in a process of its own
 * (generator.ts) at nice `--generator-nice` (-10, where the bench may raise a priority), since its
 * own waits for a CPU count in each latency (measured from the request's due time) and would be
 * charged to the service; pinned to a core, it would leave the API node, the worker and s3rver
 * one core. Each window prints how long it and the API node waited on the run queue per request.
 *
 * A job's wall time runs from its 202 to the job read back completed, after a warm-up job; a
 * worker's CPU is read from /proc/<pid>/stat from before its POST to its completion.
 * `--chunk-items N` sets the API node's BULK_CHUNK_ITEMS, `--worker-nice N` the WORKER_BULK_NICE of
 * 1. and 2. (default 0: workers on hosts of their own), `--targets 1,3` runs only those measurements
 * (an A/B of one figure); BENCH_WORKER_NODE_FLAGS node flags of the workers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster } from '../helpers/cluster.js';
import { BesideRounds } from './bulk-beside.js';
import { BulkBench, DATA_BYTES, writeItems, type JobRun, type WorkerPriority } from './bulk-job.js';
import { summarisePairs } from './bulk-rounds.js';
import { LoadGenerator } from './generator.js';
import { pinProcess, ROOT, runPinned, schedulingOf } from './procs.js';

const TARGET = { perCpuRatio: 0.8, twoWorkersWall: 0.6, p99Rise: 0.25 };

interface Options {
  items: number;
  rate: number;
  seconds: number;
  /** Alone/beside pairs of 3. per nice value. */
  rounds: number;
  chunkItems: number | undefined;
  /** WORKER_BULK_NICE of the workers of 1. and 2. (`--worker-nice N`, 0-19). */
  workerNice: number;
  /** Worker priorities 3. compares (WORKER_BULK_NICE values, or `idle`); the verdict is the first's. */
  besideNice: WorkerPriority[];
  /** Items of the job 3. runs beside the load. */
  besideItems: number;
  /**
   * `shared`: every process on any core. `split`: the API node and the load generator on core 0,
   * the worker and s3rver on core 1, as an API host and a bulk-worker host would be.
   */
  placement: 'shared' | 'split';
  /** The nice value of s3rver, or `idle` (SCHED_IDLE). */
  s3Nice: number | 'idle';
  /** The nice value of the load generator of 3. (-20 to 19). */
  generatorNice: number;
  /** Which of the three measurements to run (`--targets 1,3`: an A/B of the first and third only). */
  targets: Set<number>;
}

const USAGE =
  'usage: bulk.ts [--items N] [--rate R] [--seconds S] [--rounds N] [--chunk-items N] [--worker-nice N] ' +
  '[--beside-nice 19,0] [--beside-items N] [--placement shared|split] [--s3-nice N|idle] [--generator-nice N] [--targets 1,2,3]';

function parse(argv: string[]): Options {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!;
    const value = argv[i + 1];
    if (!name.startsWith('--') || value === undefined) throw new Error(USAGE);
    flags.set(name.slice(2), value);
  }
  const nice = (name: string, value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 19) throw new Error(`--${name} takes integers from 0 to 19`);
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
    rounds: int('rounds', 5),
    // BULK_CHUNK_ITEMS of the API node, to try another (the service's default otherwise).
    chunkItems: flags.has('chunk-items') ? int('chunk-items', 1) : undefined,
    workerNice: nice('worker-nice', flags.get('worker-nice') ?? '0'),
    besideNice: (flags.get('beside-nice') ?? '19,0').split(',').map((v) => (v === 'idle' ? 'idle' : nice('beside-nice', v))),
    besideItems: int('beside-items', 2_000_000),
    placement: ((value: string): 'shared' | 'split' => {
      if (value !== 'shared' && value !== 'split') throw new Error('--placement takes shared or split');
      return value;
    })(flags.get('placement') ?? 'shared'),
    s3Nice: ((value: string): number | 'idle' => (value === 'idle' ? 'idle' : nice('s3-nice', value)))(flags.get('s3-nice') ?? 'idle'),
    generatorNice: ((value: number): number => {
      if (!Number.isInteger(value) || value < -20 || value > 19) throw new Error('--generator-nice takes integers from -20 to 19');
      return value;
    })(Number(flags.get('generator-nice') ?? '-10')),
    targets: new Set(
      (flags.get('targets') ?? '1,2,3').split(',').map((t) => {
        if (!['1', '2', '3'].includes(t)) throw new Error('--targets is a comma-separated subset of 1,2,3');
        return Number(t);
      }),
    ),
  };
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const loadNow = (): string =>
  `${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at ${new Date().toISOString().slice(11, 19)} UTC`;
const percent = (r: number): string => `${r >= 0 ? '+' : ''}${(r * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-bulk-'));
  execFileSync(process.execPath, [path.join(ROOT, 'deploy', 'build.mjs')], { stdio: 'inherit' });
  const job = { file: path.join(workDir, 'items.ndjson'), items: options.items };
  if (options.targets.has(1) || options.targets.has(2)) writeItems(job.file, job.items);
  const besideJob = { file: path.join(workDir, 'beside.ndjson'), items: options.besideItems };
  if (options.targets.has(3)) writeItems(besideJob.file, besideJob.items);
  // Two chunks: one for each worker of the two-worker run.
  const warm = { file: path.join(workDir, 'warm.ndjson'), items: 2 * (options.chunkItems ?? 10_000) };
  writeItems(warm.file, warm.items);
  console.log(
    `sha224d bulk benchmark: ${options.items} items of ${DATA_BYTES} B for 1. and 2., ${options.besideItems} beside the load of 3., ` +
      `chunks of ${options.chunkItems ?? 'the default'} items, ${os.cpus().length} cores, load average ${loadNow()} at the start`,
  );
  const cluster = await startCluster({
    apiNodes: 1,
    workers: 0,
    s3Nice: options.s3Nice,
    env: {
      WORKER_BULK: 'false',
      LOG_LEVEL: 'warn',
      ...(options.chunkItems ? { BULK_CHUNK_ITEMS: String(options.chunkItems) } : {}),
    },
  });
  const split = options.placement === 'split';
  if (split) {
    pinProcess(cluster.apis[0]!.pid, 0);
    if (cluster.s3Pid !== undefined) pinProcess(cluster.s3Pid, 1);
  }
  console.log(
    `read from /proc: API node ${schedulingOf(cluster.apis[0]!.pid)}, s3rver ${cluster.s3Pid === undefined ? '-' : schedulingOf(cluster.s3Pid)}, ` +
      `this process ${schedulingOf(process.pid)}; ` +
      (split ? 'API node and load generator on core 0, worker and s3rver on core 1 (the workers of 3. only)\n' : 'nothing pinned\n'),
  );
  const bench = new BulkBench(cluster, await cluster.newKey({ plan: 'enterprise' }), warm);
  let allMet = true;
  try {
    // 1. The bare reference, then one worker on the same items (the one-worker run is 2.'s baseline too).
    let one: JobRun | undefined;
    if (options.targets.has(1) || options.targets.has(2)) {
      const ref = JSON.parse(
        await runPinned('load', process.execPath, [
          path.join(ROOT, 'test', 'bench', 'bulk-reference.mjs'),
          job.file,
          path.join(workDir, 'ref.out'),
        ]),
      ) as { items: number; seconds: number; cpu_micros: number };
      const refPerCpu = ref.items / (ref.cpu_micros / 1e6);
      one = await bench.run(1, options.workerNice, job);
      await bench.check(one.id, job.items);
      const onePerCpu = options.items / sum(one.cpuSecondsByWorker);
      const ratio = onePerCpu / refPerCpu;
      allMet &&= ratio >= TARGET.perCpuRatio;
      console.log(
        `1. items per worker CPU-second (worker at nice ${options.workerNice}): 1 worker ${onePerCpu.toFixed(0)} (${sum(one.cpuSecondsByWorker).toFixed(2)} CPU-s), ` +
          `bare Node ${refPerCpu.toFixed(0)} (${(ref.cpu_micros / 1e6).toFixed(2)} CPU-s, ${ref.seconds.toFixed(2)} s): ` +
          `${ratio.toFixed(3)}× (target ≥ ${TARGET.perCpuRatio}×) ${verdict(ratio >= TARGET.perCpuRatio)}; load average ${loadNow()}`,
      );
    }

    // 2. Two workers on the same job.
    if (one !== undefined && options.targets.has(2)) {
      const two = await bench.run(2, options.workerNice, job);
      const wallRatio = two.wallSeconds / one.wallSeconds;
      allMet &&= wallRatio <= TARGET.twoWorkersWall;
      console.log(
        `2. wall time: 1 worker ${one.wallSeconds.toFixed(2)} s, 2 workers ${two.wallSeconds.toFixed(2)} s: ${wallRatio.toFixed(3)}× ` +
          `(target ≤ ${TARGET.twoWorkersWall}×) ${verdict(wallRatio <= TARGET.twoWorkersWall)}; worker CPU-s 1 worker ` +
          `${sum(one.cpuSecondsByWorker).toFixed(2)}, 2 workers ${two.cpuSecondsByWorker.map((s) => s.toFixed(2)).join(' + ')}; ` +
          `load average ${loadNow()} (${os.cpus().length} cores shared with other work)`,
      );
    }

    // 3. /v2/hash p99 at a fixed rate, alone and beside a bulk job (1 worker), in rounds.
    if (options.targets.has(3)) {
      console.log(
        `3. /v2/hash at ${options.rate} req/s, windows of ${options.seconds} s, ${options.rounds} rounds, worker priorities ${options.besideNice.join(', ')}:`,
      );
      const generator = await LoadGenerator.start(options.generatorNice);
      if (split) pinProcess(generator.pid, 0);
      console.log(`   the load generator (pid ${generator.pid}) runs at nice ${generator.nice} (asked ${options.generatorNice})`);
      let pairs;
      try {
        pairs = await new BesideRounds(bench, {
          ...options,
          nices: options.besideNice,
          job: besideJob,
          generator,
          workerCore: split ? 1 : undefined,
        }).run();
      } finally {
        generator.stop();
      }
      options.besideNice.forEach((nice, i) => {
        const s = summarisePairs(pairs.get(nice) ?? []);
        const met = s.medianRise <= TARGET.p99Rise;
        if (i === 0) allMet &&= met;
        console.log(
          `   worker ${nice === 'idle' ? 'SCHED_IDLE' : `at nice ${nice}`}: median rise ${percent(s.medianRise)} over ${s.rises.length} pairs (${s.rises.map(percent).join(', ')}` +
            `${s.excluded > 0 ? `; ${s.excluded} left out, the job ended inside the window` : ''}); median p99 ${s.medianAloneMs.toFixed(2)} ms alone, ` +
            `${s.medianBesideMs.toFixed(2)} ms beside (${percent(s.medianBesideMs / s.medianAloneMs - 1)}); ` +
            (i === 0 ? `target ≤ +${TARGET.p99Rise * 100} %: ${verdict(met)}` : 'for comparison') +
            `; load average ${loadNow()}`,
        );
      });
    }
    console.log(`\nload average at the end ${loadNow()}`);
  } finally {
    await bench.close();
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
