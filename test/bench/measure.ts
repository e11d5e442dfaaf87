/**
 * Rounds of measurements: every subject of a scenario (the references and sha224d's variants) is
 * measured once per round, in an order rotated each round, so drift in the machine's load touches
 * all of them alike. A figure is the median over rounds; a ratio is the median of the per-round
 * ratios, each taken between two measurements made seconds apart.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { coreShares, coreTicks, loopDelaySince, scheduling, type LoopDelay } from './attribution.js';
import { cpuTimes, gcTraceSince, peakRssBytes, resetPeakRss, type ServerProcess } from './procs.js';

/**
 * What one load run reports. `cpuMicros` and `peakRssBytes` only when the run measures them itself:
 * the in-process reference, or a process that lives for the run alone (cold start).
 */
export interface LoadRun {
  /** Requests, messages or MB served. */
  ops: number;
  seconds: number;
  p50Ms?: number;
  p99Ms?: number;
  p999Ms?: number;
  maxMs?: number;
  /** The load generator's share of the run on a CPU and waiting for one (wrk.ts). */
  generatorBusyShare?: number | null;
  generatorWaitShare?: number | null;
  errors?: number;
  cpuMicros?: number;
  peakRssBytes?: number;
}

export interface Subject {
  name: string;
  /** References are what the others are compared with. */
  reference: boolean;
  /** Another subject of the scenario this one is also compared with (the queue path with the inline path). */
  versus?: string;
  /** Processes whose CPU time is the subject's (server, worker, Redis), by a short name. */
  cpuProcesses: () => Array<{ name: string; pid: number }>;
  /** The process whose peak RSS is reported; none for an in-process reference. */
  rssPid?: () => number;
  /** The server whose GC trace is read (bytes allocated per op, pauses); started with --trace-gc-nvp. */
  gcTrace?: () => ServerProcess;
  /** Processes whose log output is counted (bytes per op: the request log is on). */
  logs?: () => ServerProcess[];
  run: () => Promise<LoadRun>;
  /** The Redis the subject uses: commands per op are counted (INFO stats total_commands_processed). */
  redisUrl?: string;
  /** A short unrecorded run before the rounds (JIT, caches, connection pools). */
  warmUp?: () => Promise<unknown>;
}

export interface Sample {
  /** ops per second: req/s, msg/s or MB/s. */
  perSecond: number;
  p50Ms: number | null;
  p99Ms: number | null;
  /** The load generator's p99.9 and slowest op. */
  p999Ms: number | null;
  maxMs: number | null;
  /** CPU time of the subject's processes per op, in microseconds. */
  cpuMicrosPerOp: number;
  /** The kernel's part of that CPU time (system time): I/O, page cache, memory management. */
  systemShare: number | null;
  /** The same, per process, when the subject has more than one (API node, worker, Redis). */
  cpuMicrosPerOpByProcess: Record<string, number> | null;
  peakRssBytes: number | null;
  ops: number;
  errors: number;
  logBytesPerOp: number | null;
  /** Bytes the server's heap allocated per op (GC trace; see Subject.gcTrace). */
  allocatedBytesPerOp: number | null;
  /** The longest GC pause of the run, and the share of the run's time spent in pauses. */
  gcMaxPauseMs: number | null;
  gcPauseShare: number | null;
  /** Commands Redis ran per op (every client's: on the bench's private Redis, the subject's). */
  redisCommandsPerOp: number | null;
  /**
   * Attribution of the tail (attribution.ts), for the server whose GC is traced: its event loop's
   * delay (a stall of the server itself), the share of the run its event-loop thread was runnable
   * but waiting for a CPU and how often it was preempted (core 0 shared with other work), the
   * share of core 0 busy with anything but the subject's processes, core 1's (the load
   * generator's) busy share, the hypervisor's steal on either core, and the load generator's own
   * share of the run on a CPU and waiting for one.
   */
  loopDelay: LoopDelay | null;
  runQueueWaitShare: number | null;
  involuntarySwitchesPerSecond: number | null;
  core0OtherShare: number | null;
  core1BusyShare: number | null;
  stealShare: number | null;
  generatorBusyShare: number | null;
  generatorWaitShare: number | null;
  loadAverage: number;
}

function redisCommands(url: string): number {
  const info = execFileSync('redis-cli', ['-u', url, 'INFO', 'stats'], { encoding: 'utf8' });
  const m = /total_commands_processed:(\d+)/.exec(info);
  if (!m) throw new Error(`no total_commands_processed from ${url}`);
  return Number(m[1]);
}

/** What `proc` wrote to its log since byte `from`, its GC trace lines left out (they are not the service's log). */
function serviceLogBytes(proc: ServerProcess, from: number): number {
  return proc.logBytes() - from - gcTraceSince(proc.logFile, from).traceBytes;
}

export async function measure(subject: Subject): Promise<Sample> {
  const rssPid = subject.rssPid?.();
  if (rssPid !== undefined) resetPeakRss(rssPid);
  const processes = subject.cpuProcesses();
  const cpuBefore = processes.map((p) => cpuTimes(p.pid));
  const logs = subject.logs?.() ?? [];
  const logBefore = logs.map((l) => l.logBytes());
  const redisBefore = subject.redisUrl === undefined ? 0 : redisCommands(subject.redisUrl);
  const traced = subject.gcTrace?.();
  const traceFrom = traced?.logBytes() ?? 0;
  const delayFile = traced?.loopDelayFile;
  if (traced !== undefined && delayFile !== undefined) await loopDelaySince(traced.pid, delayFile); // starts the round's histogram
  const schedBefore = traced === undefined ? undefined : scheduling(traced.pid);
  const coresBefore = coreTicks();
  const coresFrom = performance.now();
  const run = await subject.run();
  const coresAfter = coreTicks();
  const coresSeconds = (performance.now() - coresFrom) / 1000;
  const schedAfter = traced === undefined ? undefined : scheduling(traced.pid);
  const loopDelay = traced === undefined || delayFile === undefined ? null : await loopDelaySince(traced.pid, delayFile);
  const traceSince = traced === undefined ? undefined : gcTraceSince(traced.logFile, traceFrom);
  // A process stopped (SIGSTOP) in the middle of a collection while another subject was measured
  // reports that pause, stop included, once it goes on: possibly after this round's trace began.
  // No pause of this round can be longer than the round.
  const gc = traceSince && { ...traceSince, pausesMs: traceSince.pausesMs.filter((ms) => ms <= run.seconds * 1000) };
  // The INFO that reads the "before" figure is counted in the "after" one.
  const redisCommandsRun = subject.redisUrl === undefined ? null : redisCommands(subject.redisUrl) - redisBefore - 1;
  const cpuAfter = processes.map((p) => cpuTimes(p.pid));
  const userUsed = cpuAfter.map((t, i) => t.user - cpuBefore[i]!.user);
  const systemUsed = cpuAfter.map((t, i) => t.system - cpuBefore[i]!.system);
  const cpuUsed = userUsed.map((u, i) => u + systemUsed[i]!);
  const cpu = run.cpuMicros ?? sum(cpuUsed);
  const cores = coreShares(coresBefore, coresAfter);
  const [core0, core1] = cores;
  // Core 0's busy time that is not the subject's: its processes are pinned there (procs.ts), the rest is other work.
  const core0Other =
    core0 === undefined || core1 === undefined || run.cpuMicros !== undefined || processes.length === 0
      ? null
      : Math.max(0, core0.busy - sum(cpuUsed) / 1e6 / coresSeconds);
  const wall = run.seconds;
  return {
    perSecond: run.ops / run.seconds,
    p50Ms: run.p50Ms ?? null,
    p99Ms: run.p99Ms ?? null,
    p999Ms: run.p999Ms ?? null,
    maxMs: run.maxMs ?? null,
    cpuMicrosPerOp: cpu / run.ops,
    systemShare: run.cpuMicros !== undefined || sum(cpuUsed) === 0 ? null : sum(systemUsed) / sum(cpuUsed),
    cpuMicrosPerOpByProcess: processes.length < 2 ? null : Object.fromEntries(processes.map((p, i) => [p.name, cpuUsed[i]! / run.ops])),
    peakRssBytes: run.peakRssBytes ?? (rssPid === undefined ? null : peakRssBytes(rssPid)),
    ops: run.ops,
    errors: run.errors ?? 0,
    logBytesPerOp: logs.length === 0 ? null : sum(logs.map((l, i) => serviceLogBytes(l, logBefore[i]!))) / run.ops,
    allocatedBytesPerOp: gc === undefined ? null : gc.allocatedBytes / run.ops,
    gcMaxPauseMs: gc === undefined ? null : Math.max(0, ...gc.pausesMs),
    gcPauseShare: gc === undefined ? null : sum(gc.pausesMs) / 1000 / run.seconds,
    redisCommandsPerOp: redisCommandsRun === null ? null : redisCommandsRun / run.ops,
    loopDelay,
    runQueueWaitShare: schedBefore && schedAfter ? (schedAfter.waitNs - schedBefore.waitNs) / 1e9 / wall : null,
    involuntarySwitchesPerSecond: schedBefore && schedAfter ? (schedAfter.involuntary - schedBefore.involuntary) / wall : null,
    core0OtherShare: core0Other,
    core1BusyShare: core1?.busy ?? null,
    stealShare: core0 && core1 ? Math.max(core0.steal, core1.steal) : null,
    generatorBusyShare: run.generatorBusyShare ?? null,
    generatorWaitShare: run.generatorWaitShare ?? null,
    loadAverage: os.loadavg()[0]!,
  };
}

/** Whether `pid` is a child of this process: a server the bench started, never a Redis or anything else it was pointed at. */
function startedHere(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid; // ppid (field 4)
  } catch {
    return false;
  }
}

/**
 * The processes of the scenario's other subjects that this process started (servers, workers, the
 * private Redis): paused while `subject` is measured, so its latency and CPU are not shared with
 * their timers, pollers and collections on the servers' core. A process the subject uses itself
 * (Redis of a distributed subject) is never among them.
 */
function othersOf(subject: Subject, subjects: Subject[]): number[] {
  const own = new Set(subject.cpuProcesses().map((p) => p.pid));
  const all = new Set(subjects.flatMap((s) => s.cpuProcesses().map((p) => p.pid)));
  return [...all].filter((pid) => !own.has(pid) && startedHere(pid));
}

/** The processes among `pids` holding a POSIX write lock (proc(5) /proc/locks), e.g. SQLite's write lock on the shared database. */
function holdingWriteLocks(pids: number[]): number[] {
  const wanted = new Set(pids);
  const holders = new Set<number>();
  for (const line of fs.readFileSync('/proc/locks', 'utf8').split('\n')) {
    const m = /^\d+: POSIX\s+\w+\s+WRITE\s+(\d+) /.exec(line);
    if (m && wanted.has(Number(m[1]))) holders.add(Number(m[1]));
  }
  return [...holders];
}

const LOCK_RELEASE_TRIES = 50;

/**
 * Runs `work` with `pids` stopped (SIGSTOP), and lets them go on (SIGCONT) however it ends. The
 * servers share one SQLite database (fleet.ts): one stopped inside a write (its usage flush) would
 * keep the write lock, and the measured server's own flush would wait on it for up to its busy
 * timeout (5 s) with its event loop blocked. So a process stopped holding a write lock goes on
 * for a moment and is stopped again, until none holds one (or LOCK_RELEASE_TRIES passed).
 */
async function withPaused<T>(pids: number[], work: () => Promise<T>): Promise<T> {
  const paused: number[] = [];
  try {
    for (const pid of pids) {
      process.kill(pid, 'SIGSTOP');
      paused.push(pid);
    }
    for (let i = 0; i < LOCK_RELEASE_TRIES; i++) {
      const holders = holdingWriteLocks(paused);
      if (holders.length === 0) break;
      for (const pid of holders) process.kill(pid, 'SIGCONT');
      await sleep(2);
      for (const pid of holders) process.kill(pid, 'SIGSTOP');
    }
    return await work();
  } finally {
    for (const pid of paused) process.kill(pid, 'SIGCONT');
  }
}

/**
 * `rounds` rounds over every subject, order rotated per round; samples per subject, in round order.
 * Each measurement runs with the other subjects' processes paused (othersOf).
 */
export async function measureRounds(subjects: Subject[], rounds: number, onSample?: (s: Subject, r: number, x: Sample) => void) {
  const samples = new Map<Subject, Sample[]>(subjects.map((s) => [s, []]));
  for (const subject of subjects) await subject.warmUp?.();
  for (let r = 0; r < rounds; r++) {
    const order = subjects.map((_, i) => subjects[(i + r) % subjects.length]!);
    for (const subject of order) {
      const sample = await withPaused(othersOf(subject, subjects), () => measure(subject));
      samples.get(subject)!.push(sample);
      onSample?.(subject, r, sample);
    }
  }
  return samples;
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const medianOf = (samples: Sample[], pick: (s: Sample) => number | null): number | null => {
  const values = samples.map(pick).filter((v): v is number => v !== null);
  return values.length === 0 ? null : median(values);
};

/** The median of every figure over rounds (each figure on its own). */
export function medianSample(samples: Sample[]): Sample {
  return {
    perSecond: median(samples.map((s) => s.perSecond)),
    p50Ms: medianOf(samples, (s) => s.p50Ms),
    p99Ms: medianOf(samples, (s) => s.p99Ms),
    p999Ms: medianOf(samples, (s) => s.p999Ms),
    maxMs: medianOf(samples, (s) => s.maxMs),
    cpuMicrosPerOp: median(samples.map((s) => s.cpuMicrosPerOp)),
    systemShare: medianOf(samples, (s) => s.systemShare),
    cpuMicrosPerOpByProcess: medianByProcess(samples),
    peakRssBytes: medianOf(samples, (s) => s.peakRssBytes),
    ops: samples.reduce((a, s) => a + s.ops, 0),
    errors: samples.reduce((a, s) => a + s.errors, 0),
    logBytesPerOp: medianOf(samples, (s) => s.logBytesPerOp),
    allocatedBytesPerOp: medianOf(samples, (s) => s.allocatedBytesPerOp),
    gcMaxPauseMs: medianOf(samples, (s) => s.gcMaxPauseMs),
    gcPauseShare: medianOf(samples, (s) => s.gcPauseShare),
    redisCommandsPerOp: medianOf(samples, (s) => s.redisCommandsPerOp),
    loopDelay: medianLoopDelay(samples),
    runQueueWaitShare: medianOf(samples, (s) => s.runQueueWaitShare),
    involuntarySwitchesPerSecond: medianOf(samples, (s) => s.involuntarySwitchesPerSecond),
    core0OtherShare: medianOf(samples, (s) => s.core0OtherShare),
    core1BusyShare: medianOf(samples, (s) => s.core1BusyShare),
    stealShare: medianOf(samples, (s) => s.stealShare),
    generatorBusyShare: medianOf(samples, (s) => s.generatorBusyShare),
    generatorWaitShare: medianOf(samples, (s) => s.generatorWaitShare),
    loadAverage: median(samples.map((s) => s.loadAverage)),
  };
}

function medianLoopDelay(samples: Sample[]): LoopDelay | null {
  const delays = samples.flatMap((s) => (s.loopDelay === null ? [] : [s.loopDelay]));
  if (delays.length === 0) return null;
  return {
    samples: median(delays.map((d) => d.samples)),
    p50Ms: median(delays.map((d) => d.p50Ms)),
    p99Ms: median(delays.map((d) => d.p99Ms)),
    maxMs: median(delays.map((d) => d.maxMs)),
  };
}

function medianByProcess(samples: Sample[]): Record<string, number> | null {
  const names = Object.keys(samples[0]?.cpuMicrosPerOpByProcess ?? {});
  if (names.length === 0) return null;
  return Object.fromEntries(names.map((n) => [n, median(samples.map((s) => s.cpuMicrosPerOpByProcess?.[n] ?? NaN))]));
}

export interface Ratio {
  /** Median of the per-round ratios of ops per second (subject ÷ reference; above 1 is faster). */
  throughput: number;
  /** Median of the per-round ratios of CPU per op (subject ÷ reference; above 1 costs more). */
  cpu: number;
}

export function ratio(subject: Sample[], reference: Sample[]): Ratio {
  const n = Math.min(subject.length, reference.length);
  const rounds = Array.from({ length: n }, (_, i) => [subject[i]!, reference[i]!] as const);
  return {
    throughput: median(rounds.map(([s, r]) => s.perSecond / r.perSecond)),
    cpu: median(rounds.map(([s, r]) => s.cpuMicrosPerOp / r.cpuMicrosPerOp)),
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
