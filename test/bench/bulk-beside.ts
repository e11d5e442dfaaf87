/**
 * Target 3 of `npm run bench:bulk` (test/bench/bulk.ts): /v2/hash at a fixed rate (fixed-rate.ts,
 * latency counted from each request's due time) alone and beside a running bulk job, in pairs
 * ordered and read as test/bench/bulk-rounds.ts says (ABBA, verdict on the median of per-pair rises).
 *
 * Each WORKER_BULK_NICE value compared gets one pair per round, on one bulk worker started at that
 * value for the pair (and warmed); it stays up, idle, through the "alone" window, as a worker on a
 * shared host would. A "beside" window opens once the job has a chunk done (the worker is hashing)
 * and the job must still be running when it closes: then it is cancelled. A job found finished
 * counts only for the share of the window it ran (its `finished_at`), and its pair is left out.
 * Before every window the bulk queue is empty and the worker and s3rver are idle (a cancelled
 * job's queued chunks are skipped one by one). Each window also reports how long the API node and
 * the load generator (a child process, generator.ts) waited on the run queue per request (/proc
 * schedstat): the CPU contention the p99 shows.
 */
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { waitFor } from '../helpers/wait.js';
import { processScheduling } from './attribution.js';
import { itemData, type BulkBench, type ItemsFile, type WorkerPriority } from './bulk-job.js';
import { pairOrder, settingsInRound, type Pair, type Side } from './bulk-rounds.js';
import type { FixedRateResult } from './fixed-rate.js';
import type { LoadGenerator } from './generator.js';
import { cpuMicros, pinProcess, schedulingOf } from './procs.js';

export interface BesideOptions {
  rate: number;
  seconds: number;
  rounds: number;
  /** Worker priorities, each measured once per round. */
  nices: readonly WorkerPriority[];
  /** The job run beside the load: large enough to outlast a window. */
  job: ItemsFile;
  /** Sends the load (generator.ts). */
  generator: LoadGenerator;
  /** The core each new worker is pinned to (`--placement split`), or none. */
  workerCore: number | undefined;
}

interface Window {
  load: FixedRateResult;
  /** Run-queue wait per request during the window, in µs: the API node's and the load generator's. */
  apiWaitMicros: number;
  /**
   * The API node's time on a CPU per request, in µs: rising beside the job with no more work to do,
   * it tells of a core slowed by its neighbour (a shared cache, or vCPUs sharing a physical core).
   */
  apiRunMicros: number;
  generatorWaitMicros: number;
}

interface BesideWindow extends Window {
  overlap: number;
  /** The worker's CPU during the window, in cores. */
  workerCores: number;
  itemsPerSecond: number;
  /** From the POST to its 202 (the body stored), and from the 202 to the first chunk done. */
  submitSeconds: number;
  firstChunkSeconds: number;
}

/** A process counts as idle below this share of a core over IDLE_SAMPLE_MS. */
const IDLE_SHARE = 0.1;
const IDLE_SAMPLE_MS = 250;

const stamp = (): string =>
  `${new Date().toISOString().slice(11, 19)} UTC, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

export class BesideRounds {
  /** The pairs measured for each nice value, in run order. */
  readonly pairs = new Map<WorkerPriority, Pair[]>();

  constructor(
    private readonly bench: BulkBench,
    private readonly options: BesideOptions,
  ) {}

  private load(seconds: number): Promise<FixedRateResult> {
    return this.options.generator.run({
      url: `${this.bench.url}/v2/hash`,
      body: JSON.stringify({ data: itemData(0) }),
      apiKey: this.bench.key,
      rate: this.options.rate,
      seconds,
    });
  }

  async run(): Promise<Map<WorkerPriority, Pair[]>> {
    // A first stretch unmeasured: the API node's /v2/hash path compiled, as in every window after it.
    await this.load(Math.min(2, this.options.seconds));
    for (let round = 0; round < this.options.rounds; round++)
      for (const nice of settingsInRound(this.options.nices, round)) await this.pair(round, nice);
    return this.pairs;
  }

  private async pair(round: number, nice: WorkerPriority): Promise<void> {
    await this.bench.startWorkers(1, nice);
    const worker = this.bench.workers[0]!;
    if (this.options.workerCore !== undefined) pinProcess(worker.pid, this.options.workerCore);
    const windows = new Map<Side, Window>();
    let beside: BesideWindow | undefined;
    try {
      for (const side of pairOrder(round)) {
        await this.idle([worker.pid, ...(this.bench.cluster.s3Pid === undefined ? [] : [this.bench.cluster.s3Pid])]);
        if (side === 'alone') windows.set(side, await this.window());
        else windows.set(side, (beside = await this.besideWindow(worker.pid)));
        const w = windows.get(side)!;
        console.log(
          `   round ${round + 1}, worker ${schedulingOf(worker.pid)}, ${side}: p99 ${w.load.p99Ms.toFixed(2)} ms, p50 ${w.load.p50Ms.toFixed(2)} ms, ` +
            `${w.load.errors} errors; per request: API node on a CPU ${w.apiRunMicros.toFixed(0)} µs, waiting for one ${w.apiWaitMicros.toFixed(0)} µs, load generator waiting ${w.generatorWaitMicros.toFixed(0)} µs` +
            (side === 'beside' && beside !== undefined
              ? `; the job ran ${(beside.overlap * 100).toFixed(0)} % of the window, worker ${beside.workerCores.toFixed(2)} cores, ${beside.itemsPerSecond.toFixed(0)} items/s (POST to 202 ${beside.submitSeconds.toFixed(1)} s, to a first chunk ${beside.firstChunkSeconds.toFixed(1)} s)`
              : '') +
            ` (${stamp()})`,
        );
      }
    } finally {
      await this.bench.stopWorkers();
    }
    const alone = windows.get('alone')!.load.p99Ms;
    const p99Beside = beside!.load.p99Ms;
    const pairs = this.pairs.get(nice) ?? [];
    pairs.push({ aloneP99Ms: alone, besideP99Ms: p99Beside, overlap: beside!.overlap });
    this.pairs.set(nice, pairs);
  }

  /** One window of the load, with the run-queue waits it saw. */
  private async window(): Promise<Window> {
    const api = this.bench.cluster.apis[0]!.pid;
    const apiBefore = processScheduling(api);
    const generatorBefore = processScheduling(this.options.generator.pid).waitNs;
    const load = await this.load(this.options.seconds);
    const perRequest = (ns: number): number => ns / 1000 / load.requests;
    const apiAfter = processScheduling(api);
    return {
      load,
      apiWaitMicros: perRequest(apiAfter.waitNs - apiBefore.waitNs),
      apiRunMicros: perRequest(apiAfter.runNs - apiBefore.runNs),
      generatorWaitMicros: perRequest(processScheduling(this.options.generator.pid).waitNs - generatorBefore),
    };
  }

  private async besideWindow(workerPid: number): Promise<BesideWindow> {
    const posted = performance.now();
    const id = await this.bench.submit(this.options.job.file);
    const accepted = performance.now();
    const first = await waitFor(
      async () => {
        const status = await this.bench.status(id);
        if (status.status !== 'running') throw new Error(`bulk job ${id} is ${status.status} before the window opened`);
        return status.items.done > 0 ? status : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 20, what: `a first chunk of bulk job ${id}` },
    );
    const firstChunkSeconds = (performance.now() - accepted) / 1000;
    const cpuBefore = cpuMicros(workerPid);
    const opened = Date.now();
    const w = await this.window();
    const closed = Date.now();
    const seconds = (closed - opened) / 1000;
    const workerCores = (cpuMicros(workerPid) - cpuBefore) / 1e6 / seconds;
    const last = await this.bench.status(id);
    const itemsPerSecond = (last.items.done - first.items.done) / seconds;
    let overlap = 1;
    if (last.status === 'running') await this.bench.cancel(id);
    else {
      const finished = last.finished_at === undefined ? opened : Date.parse(last.finished_at);
      overlap = Math.max(0, Math.min(1, (finished - opened) / (closed - opened)));
    }
    return { ...w, overlap, workerCores, itemsPerSecond, submitSeconds: (accepted - posted) / 1000, firstChunkSeconds };
  }

  /** The bulk queue empty, then each process below IDLE_SHARE of a core over IDLE_SAMPLE_MS. */
  private async idle(pids: number[]): Promise<void> {
    await this.bench.queueEmpty();
    await waitFor(
      async () => {
        const before = pids.map((pid) => processScheduling(pid).runNs);
        await delay(IDLE_SAMPLE_MS);
        return pids.every((pid, i) => processScheduling(pid).runNs - before[i]! < IDLE_SHARE * IDLE_SAMPLE_MS * 1e6);
      },
      { timeoutMs: 60_000, intervalMs: 0, what: 'the worker and s3rver to be idle' },
    );
  }
}
