/**
 * `npm run bench` (flags after `--`, see options.ts): the service's throughput, latency, CPU time
 * and memory, each against a bare reference measured in the same run, in interleaved rounds.
 *
 *   - POST /v2/hash, 64 B, 64 connections: sha224d embedded, distributed with inline hashing (the
 *     default), and the queue path (INLINE_MAX_BYTES=0, one worker), against bare node:http and
 *     bare Express 5 (same JSON body, node:crypto);
 *   - POST /v2/batch, 1000 × 64 B, against the same parse + hash + serialise in one process;
 *   - /v2/ws hash messages against a bare ws server;
 *   - POST /v2/stream (256 MiB by default) MB/s and peak RSS against node:http hashing while receiving;
 *   - cold start to the first 200 against bare node:http;
 *   - the queue path with 1 and with 3 API nodes (one worker): API CPU and Redis commands per request.
 *
 * Load comes from external generators (wrk; for ws and stream, node clients) pinned to core 1, the
 * servers to core 0 (procs.ts). While a subject is measured, the scenario's other servers (and the
 * private Redis, unless the subject uses it) are paused with SIGSTOP, so the subject has core 0 to
 * itself (measure.ts withPaused). Servers run with their default configuration, the request log
 * included, written to a file. CPU µs per request is the figure to read on a shared machine: it
 * counts the servers' own CPU time, which other work on the machine barely moves.
 *
 * Every round also records what its latency tail came from (attribution.ts): the server's event-loop
 * delay (a preloaded sampler, loop-delay.mjs), its event-loop thread's wait for core 0, other work
 * on either core, and wrk's own wait for core 1; printed per round under each scenario's table.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Fleet } from './fleet.js';
import { measureRounds } from './measure.js';
import { parseOptions } from './options.js';
import { pinHarness, placement, ROOT } from './procs.js';
import { formatTargets } from './targets.js';
import { formatChanges, formatScenario, previousResults, scenarioResult, writeResults, type BenchResults } from './report.js';
import {
  batchScenario,
  coldStartScenario,
  hashScenario,
  scaleoutScenario,
  streamScenario,
  wsScenario,
  type Scenario,
} from './scenarios.js';

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  pinHarness();
  const startedAt = new Date().toISOString();
  const loadStart = os.loadavg()[0]!;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-'));
  const fleet = await Fleet.create(workDir, options.redisUrl, { loopDelay: true });
  const scenarios: BenchResults['scenarios'] = {};
  console.log(
    `sha224d benchmark: ${os.cpus().length} cores, ${placement()}; ${options.rounds} interleaved rounds of ${options.durationSec} s; ` +
      `other subjects' servers paused while one is measured; load average ${loadStart.toFixed(1)}${options.quick ? ' (quick)' : ''}\n`,
  );
  try {
    // Each scenario starts the servers it needs when it is built and stops them when measured.
    const builders: Record<(typeof options.only)[number], Array<() => Promise<Scenario>>> = {
      hash: [() => hashScenario(fleet, options)],
      batch: [() => batchScenario(fleet, options)],
      ws: (options.quick ? [16] : [1, 16]).map((connections) => () => wsScenario(fleet, options, connections)),
      stream: [() => streamScenario(fleet, options)],
      cold: [() => Promise.resolve(coldStartScenario(fleet))],
      scaleout: [() => scaleoutScenario(fleet, options)],
    };
    for (const group of options.only) {
      for (const build of builders[group]) {
        const scenario = await build();
        process.stdout.write(`${scenario.title}: `);
        const samples = await measureRounds(scenario.subjects, options.rounds, () => process.stdout.write('.'));
        const result = scenarioResult(scenario, samples);
        scenarios[scenario.id] = result;
        console.log(`\n${formatScenario(result)}\n`);
        await fleet.stopServers();
      }
    }
  } finally {
    await fleet.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }

  const results: BenchResults = {
    schema: 1,
    startedAt,
    finishedAt: new Date().toISOString(),
    commit: commit(),
    node: process.version,
    cpus: os.cpus().length,
    placement: placement(),
    options: { ...options },
    loadAverage: { start: loadStart, end: os.loadavg()[0]! },
    scenarios,
  };
  const previous = previousResults(ROOT, options.quick);
  const file = writeResults(ROOT, results);
  if (previous) console.log(`${formatChanges(previous, results)}\n`);
  const targets = formatTargets(scenarios);
  if (targets !== '') console.log(`${targets}\n`);
  console.log(`Results: ${file}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
