/**
 * Logging's added CPU per `POST /v2/hash` request, measured on the server alone (docs/proving.md
 * "Measured figures"): a fresh embedded sha224d process (dist/embedded.js, its default
 * configuration, SQLite) pinned to core 0 answers wrk (pinned to core 1) with the same 64-byte body
 * with and without `"log": true`, in interleaved rounds whose order rotates (measure.ts). CPU is the
 * server's user + system time from /proc/<pid>/stat, so the load generator and this harness cost
 * nothing in the figure. The target: logging adds at most 10 % CPU per request.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Fleet } from './fleet.js';
import { emptyTally, formatTally, type GcTally, tallyGcSince } from './log-gc.js';
import { measureRounds, median, type LoadRun, type Sample, type Subject } from './measure.js';
import { parseOptions } from './options.js';
import { pinHarness, placement, type ServerProcess } from './procs.js';
import { runWrk } from './wrk.js';

const DATA = 'The quick brown fox jumps over the lazy dog, 64 bytes of input.!'; // 64 bytes
const PLAIN_BODY = JSON.stringify({ data: DATA });
const LOGGED_BODY = JSON.stringify({ data: DATA, log: true });
/** The product's target: logging adds at most this share of CPU per request. */
const TARGET_ADDED_SHARE = 0.1;

const sha224 = (data: string): string => createHash('sha224').update(data).digest('hex');

/** One answer of each kind checked before anything is measured: the figures never describe errors. */
async function check(server: ServerProcess, apiKey: string): Promise<void> {
  const post = async (body: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${server.url}/v2/hash`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body,
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200 || json.hash !== sha224(DATA)) throw new Error(`/v2/hash answered ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  await post(PLAIN_BODY);
  const receipt = (await post(LOGGED_BODY)).receipt as { leaf?: { digest?: unknown }; tlog_proof?: unknown } | undefined;
  if (receipt?.leaf?.digest !== sha224(DATA) || typeof receipt.tlog_proof !== 'string')
    throw new Error(`/v2/hash with log answered no receipt of the digest: ${JSON.stringify(receipt)}`);
}

export interface LogHttpCost {
  plainMicros: number;
  loggedMicros: number;
  /** Median of the per-round ratios logged ÷ plain, minus one. */
  addedShare: number;
  loggedPerSecond: number;
  plainPerSecond: number;
  loadAverage: number;
}

export async function logHttpCost(): Promise<LogHttpCost> {
  const options = parseOptions([], process.env);
  pinHarness();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-log-'));
  const fleet = await Fleet.create(workDir, undefined);
  try {
    const server = await fleet.embedded();
    await check(server, fleet.apiKey);
    const load = (body: string) => async (): Promise<LoadRun> => {
      const r = await runWrk({
        url: `${server.url}/v2/hash`,
        body,
        headers: { 'Content-Type': 'application/json', 'X-API-Key': fleet.apiKey },
        connections: options.connections,
        durationSec: options.durationSec,
        workDir,
      });
      if (r.errors > 0) throw new Error(`wrk saw ${r.errors} errors`);
      return { ops: r.requests, seconds: r.durationSec, p50Ms: r.p50Ms, p99Ms: r.p99Ms, errors: r.errors };
    };
    // The server's collections during each subject's measured runs (warm-ups left out).
    const gc = new Map<string, GcTally>();
    const subject = (name: string, body: string): Subject => {
      const tally = emptyTally();
      gc.set(name, tally);
      return {
        name,
        reference: body === PLAIN_BODY,
        cpuProcesses: () => [{ name: 'server', pid: server.pid }],
        run: async () => {
          const from = server.logBytes();
          const run = await load(body)();
          tallyGcSince(server.logFile, from, tally);
          return run;
        },
        warmUp: load(body),
      };
    };
    const plain = subject('without log', PLAIN_BODY);
    const logged = subject('with "log": true', LOGGED_BODY);
    process.stdout.write(
      `/v2/hash, 64 B, ${options.connections} connections (wrk), embedded on SQLite, ${placement()}; ` +
        `${options.rounds} interleaved rounds of ${options.durationSec} s; load average ${os.loadavg()[0]!.toFixed(2)}: `,
    );
    const samples = await measureRounds([plain, logged], options.rounds, () => process.stdout.write('.'));
    const p = samples.get(plain)!;
    const l = samples.get(logged)!;
    const result: LogHttpCost = {
      plainMicros: median(p.map((s) => s.cpuMicrosPerOp)),
      loggedMicros: median(l.map((s) => s.cpuMicrosPerOp)),
      addedShare: median(l.map((s, i) => s.cpuMicrosPerOp / p[i]!.cpuMicrosPerOp - 1)),
      plainPerSecond: median(p.map((s) => s.perSecond)),
      loggedPerSecond: median(l.map((s) => s.perSecond)),
      loadAverage: median([...p, ...l].map((s) => s.loadAverage)),
    };
    const requests = (samples: Sample[]): number => samples.reduce((sum, s) => sum + s.ops, 0);
    process.stdout.write(
      `\n${format(result, p, l)}\n` +
        `  GC without log: ${formatTally(gc.get(plain.name)!, requests(p))}\n` +
        `  GC with "log": true: ${formatTally(gc.get(logged.name)!, requests(l))}\n`,
    );
    return result;
  } finally {
    await fleet.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function format(r: LogHttpCost, plain: Sample[], logged: Sample[]): string {
  const rounds = (samples: Sample[]): string => samples.map((s) => Math.round(s.cpuMicrosPerOp)).join(', ');
  const met = r.addedShare <= TARGET_ADDED_SHARE ? 'met' : 'NOT met';
  return (
    `  server CPU per request: without log ${r.plainMicros.toFixed(1)} µs (${Math.round(r.plainPerSecond)} req/s), ` +
    `with "log": true ${r.loggedMicros.toFixed(1)} µs (${Math.round(r.loggedPerSecond)} req/s = leaves/s)\n` +
    `  logging adds ${(100 * r.addedShare).toFixed(1)} % CPU per request (median of per-round ratios ${(1 + r.addedShare).toFixed(3)}×): ` +
    `target ≤ ${100 * TARGET_ADDED_SHARE} % ${met}; load average ${r.loadAverage.toFixed(2)}\n` +
    `  [rounds without: ${rounds(plain)}; with: ${rounds(logged)} µs]`
  );
}
