/**
 * HTTP load from wrk (an external generator, pinned to the load core): `connections` keep-alive
 * connections on one thread for `durationSec`, each POSTing the same body. wrk's own summary is
 * printed as JSON by the script's `done` hook, so nothing is scraped from its human-readable text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { threadScheduling, type Scheduling } from './attribution.js';
import { runPinned } from './procs.js';

export interface WrkOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  connections: number;
  durationSec: number;
  /** Where the generated Lua script and body file go. */
  workDir: string;
}

export interface WrkResult {
  requests: number;
  durationSec: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The tail past p99: p99.9 and the slowest response. */
  p999Ms: number;
  maxMs: number;
  /**
   * wrk's own thread during the run: the share of the run it spent on a CPU, and runnable but
   * waiting for one (a load generator that waits sends late and reads late: its latencies grow
   * with its own delays). Read every GENERATOR_POLL_MS, so the run's last moments are missed.
   * Every thread of the process: wrk's load thread (-t1) is not its main thread.
   */
  generatorBusyShare: number | null;
  generatorWaitShare: number | null;
  /** Responses with a status ≥ 400, plus connect, read, write and timeout errors. */
  errors: number;
}

const luaString = (s: string): string => JSON.stringify(s); // a JSON string is a valid Lua string for ASCII

/** The Lua script: method, headers, body read from a file, and a JSON summary at the end. */
function script(options: WrkOptions, bodyFile: string): string {
  const headers = Object.entries(options.headers)
    .map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`)
    .join('\n');
  return `wrk.method = "POST"
${headers}
local f = assert(io.open(${luaString(bodyFile)}, "rb"))
wrk.body = f:read("*a")
f:close()

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH_JSON {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d,"p999_us":%d,"max_us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`;
}

let runs = 0;

const GENERATOR_POLL_MS = 100;

/** Polls the scheduling of `pid` until stopped; the first and the last reading it could take. */
/**
 * Polls the scheduling of every thread of `pid` until stopped: what each thread spent on a CPU and
 * waiting for one since the first reading (a thread born later, since 0), over the time between the
 * first and the last reading. Each thread's last reading counts even once it has ended: wrk's load
 * thread ends before wrk prints its summary and exits.
 */
function watchScheduling(): { onSpawn: (pid: number) => void; stop: () => { busy: number; wait: number; seconds: number } | null } {
  const first = new Map<number, Scheduling>();
  const last = new Map<number, Scheduling>();
  let firstAt: number | undefined;
  let lastAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const read = (pid: number): void => {
    try {
      const threads = threadScheduling(pid);
      const at = performance.now();
      if (firstAt === undefined) for (const [tid, t] of threads) first.set(tid, t);
      for (const [tid, t] of threads) last.set(tid, t);
      firstAt ??= at;
      lastAt = at;
    } catch {
      // exited between two readings
    }
  };
  return {
    onSpawn: (pid) => {
      read(pid);
      timer = setInterval(() => read(pid), GENERATOR_POLL_MS);
    },
    stop: () => {
      clearInterval(timer);
      if (firstAt === undefined || lastAt === undefined || lastAt <= firstAt) return null;
      let run = 0;
      let wait = 0;
      for (const [tid, t] of last) {
        run += t.runNs - (first.get(tid)?.runNs ?? 0);
        wait += t.waitNs - (first.get(tid)?.waitNs ?? 0);
      }
      const span = (lastAt - firstAt) * 1e6; // ns
      return { busy: run / span, wait: wait / span, seconds: span / 1e9 };
    },
  };
}

export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  // A name per run: the scale-out scenario runs several at once.
  const run = `${process.pid}-${++runs}`;
  const bodyFile = path.join(options.workDir, `wrk-body-${run}.txt`);
  const scriptFile = path.join(options.workDir, `wrk-${run}.lua`);
  fs.writeFileSync(bodyFile, options.body);
  fs.writeFileSync(scriptFile, script(options, bodyFile));
  const watch = watchScheduling();
  const out = await runPinned(
    'load',
    'wrk',
    ['-t1', `-c${options.connections}`, `-d${options.durationSec}s`, '--latency', '--timeout', '10s', '-s', scriptFile, options.url],
    {},
    watch.onSpawn,
  );
  const generator = watch.stop();
  const line = /^BENCH_JSON (.*)$/m.exec(out);
  if (!line) throw new Error(`wrk printed no summary:\n${out}`);
  const s = JSON.parse(line[1]!) as {
    requests: number;
    duration_us: number;
    errors: number;
    p50_us: number;
    p99_us: number;
    p999_us: number;
    max_us: number;
  };
  const durationSec = s.duration_us / 1e6;
  // Readings that cover less than half the run (a harness too starved to take them) say nothing of it.
  const covered = generator !== null && generator.seconds >= durationSec / 2 ? generator : null;
  return {
    requests: s.requests,
    durationSec,
    perSecond: s.requests / durationSec,
    p50Ms: s.p50_us / 1000,
    p99Ms: s.p99_us / 1000,
    p999Ms: s.p999_us / 1000,
    maxMs: s.max_us / 1000,
    generatorBusyShare: covered?.busy ?? null,
    generatorWaitShare: covered?.wait ?? null,
    errors: s.errors,
  };
}
