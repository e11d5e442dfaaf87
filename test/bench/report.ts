/**
 * What `npm run bench` prints and keeps: a table per scenario (medians over rounds, ratios as
 * medians of per-round ratios), the results as JSON in bench-results/<timestamp>.json (git-ignored),
 * and the change since the newest earlier results file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { medianSample, ratio, type Ratio, type Sample, type Subject } from './measure.js';
import type { Scenario } from './scenarios.js';

export interface SubjectResult {
  reference: boolean;
  median: Sample;
  rounds: Sample[];
  /** Ratios against each reference of the scenario, by the reference's name. */
  vs: Record<string, Ratio>;
}

export interface ScenarioResult {
  title: string;
  unit: Scenario['unit'];
  op: Scenario['op'];
  subjects: Record<string, SubjectResult>;
}

export interface BenchResults {
  schema: 1;
  startedAt: string;
  finishedAt: string;
  commit: string;
  node: string;
  cpus: number;
  placement: string;
  options: Record<string, unknown>;
  loadAverage: { start: number; end: number };
  scenarios: Record<string, ScenarioResult>;
}

export function scenarioResult(scenario: Scenario, samples: Map<Subject, Sample[]>): ScenarioResult {
  const references = scenario.subjects.filter((s) => s.reference);
  const subjects: Record<string, SubjectResult> = {};
  for (const subject of scenario.subjects) {
    const rounds = samples.get(subject) ?? [];
    const vs: Record<string, Ratio> = {};
    for (const reference of references) {
      if (reference !== subject) vs[reference.name] = ratio(rounds, samples.get(reference) ?? []);
    }
    const versus = scenario.subjects.find((other) => other.name === subject.versus);
    if (versus !== undefined) vs[versus.name] = ratio(rounds, samples.get(versus) ?? []);
    subjects[subject.name] = { reference: subject.reference, median: medianSample(rounds), rounds, vs };
  }
  return { title: scenario.title, unit: scenario.unit, op: scenario.op, subjects };
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const fixed = (n: number | null, digits: number): string => (n === null || !Number.isFinite(n) ? '—' : n.toFixed(digits));
const percent = (share: number | null): string => (share === null || !Number.isFinite(share) ? '—' : `${(share * 100).toFixed(1)}%`);
const mb = (bytes: number | null): string => (bytes === null ? '—' : `${(bytes / 1e6).toFixed(0)} MB`);
/** Cold start is timed per start: its "ops per second" print as milliseconds per start. */
const headline = (unit: Scenario['unit'], s: Sample): string => (unit === 'ms' ? fixed(1000 / s.perSecond, 0) : int(s.perSecond));
const cpuFigure = (op: Scenario['op'], s: Sample): string =>
  op === 'start' ? fixed(s.cpuMicrosPerOp / 1000, 0) : fixed(s.cpuMicrosPerOp, 1);

export function formatScenario(result: ScenarioResult): string {
  const cold = result.unit === 'ms';
  const cpuLabel = cold ? 'CPU ms' : `CPU µs/${result.op}`;
  const header = [
    ''.padEnd(48),
    (cold ? 'ms to 200' : result.unit).padStart(10),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    cpuLabel.padStart(12),
    'sys'.padStart(4),
    'peak RSS'.padStart(9),
    'log B/op'.padStart(9),
    'alloc KB/op'.padStart(11),
    'GC max ms'.padStart(9),
    'GC %'.padStart(5),
    'loop p99/max'.padStart(12),
    'rq wait'.padStart(7),
  ].join(' ');
  const load = Object.values(result.subjects).flatMap((r) => r.rounds.map((x) => x.loadAverage));
  const lines = [`${result.title} (load average ${fixed(Math.min(...load), 1)}–${fixed(Math.max(...load), 1)})`, header];
  for (const [name, r] of Object.entries(result.subjects)) {
    const m = r.median;
    lines.push(
      [
        `  ${name}`.padEnd(48),
        headline(result.unit, m).padStart(10),
        fixed(m.p50Ms, 2).padStart(8),
        fixed(m.p99Ms, 2).padStart(8),
        cpuFigure(result.op, m).padStart(12),
        (m.systemShare === null ? '—' : `${(m.systemShare * 100).toFixed(0)}%`).padStart(4),
        mb(m.peakRssBytes).padStart(9),
        fixed(m.logBytesPerOp, 0).padStart(9),
        fixed(m.allocatedBytesPerOp === null ? null : m.allocatedBytesPerOp / 1024, 1).padStart(11),
        fixed(m.gcMaxPauseMs, 1).padStart(9),
        fixed(m.gcPauseShare === null ? null : m.gcPauseShare * 100, 1).padStart(5),
        (m.loopDelay === null ? '—' : `${fixed(m.loopDelay.p99Ms, 1)}/${fixed(m.loopDelay.maxMs, 1)}`).padStart(12),
        percent(m.runQueueWaitShare).padStart(7),
        m.errors > 0 ? `  ${m.errors} ERRORS` : '',
      ].join(' '),
    );
  }
  for (const [name, r] of Object.entries(result.subjects)) {
    const split = r.median.cpuMicrosPerOpByProcess;
    if (split) {
      const each = Object.entries(split).map(([process, us]) => `${process} ${fixed(us, 1)}`);
      // Several API nodes (scaleout): their CPU together per request is what each spends per request it serves.
      const apis = Object.entries(split).filter(([process]) => process.startsWith('api-'));
      if (apis.length > 1)
        each.push(
          `API nodes together ${fixed(
            apis.reduce((a, [, us]) => a + us, 0),
            1,
          )}`,
        );
      const redis = r.median.redisCommandsPerOp;
      const commands = redis === null ? '' : `; Redis commands/${result.op}: ${fixed(redis, 2)}`;
      lines.push(`  ${name}: CPU µs/${result.op} by process: ${each.join(', ')}${commands}`);
    }
  }
  lines.push(...formatRounds(result));
  for (const [name, r] of Object.entries(result.subjects)) {
    const parts = Object.entries(r.vs).map(([ref, q]) =>
      cold
        ? `${fixed(1 / q.throughput, 2)}× the time, ${fixed(q.cpu, 2)}× the CPU of ${ref}`
        : `${fixed(q.throughput, 3)}× the ${result.unit}, ${fixed(q.cpu, 2)}× the CPU/${result.op} of ${ref}`,
    );
    if (!r.reference && parts.length > 0) lines.push(`  ${name}: ${parts.join('; ')}`);
  }
  return lines.join('\n');
}

/**
 * Per round, what a slow round's tail came from, for subjects whose server's event loop is sampled
 * (measure.ts Sample): the load generator's tail beside the server's own stalls (event-loop delay,
 * GC) and the time its event-loop thread was runnable but not running (other work on core 0, the
 * hypervisor's steal) or the load generator's core busy.
 */
function formatRounds(result: ScenarioResult): string[] {
  const subjects = Object.entries(result.subjects).filter(([, r]) => r.rounds.some((x) => x.loopDelay !== null && x.p99Ms !== null));
  if (subjects.length === 0) return [];
  const lines = [
    '  per round: wrk p50/p99/p99.9/max ms | event-loop delay p99/max ms, GC max pause ms | event-loop thread waiting for a CPU, ' +
      'preemptions/s | core 0 busy with other work, core 1 busy, steal | wrk on a CPU, waiting for one | reading',
  ];
  for (const [name, r] of subjects) {
    r.rounds.forEach((x, i) => {
      const wrk = [x.p50Ms, x.p99Ms, x.p999Ms, x.maxMs].map((v) => fixed(v, 1)).join('/');
      const loop = x.loopDelay === null ? '—' : `${fixed(x.loopDelay.p99Ms, 1)}/${fixed(x.loopDelay.maxMs, 1)}`;
      lines.push(
        `  ${`${name} #${i + 1}`.padEnd(46)} ${wrk.padStart(22)} | ${loop.padStart(10)}, GC ${fixed(x.gcMaxPauseMs, 1).padStart(4)} | ` +
          `${percent(x.runQueueWaitShare).padStart(6)}, ${fixed(x.involuntarySwitchesPerSecond, 0).padStart(4)}/s | ` +
          `${percent(x.core0OtherShare).padStart(6)}, ${percent(x.core1BusyShare).padStart(6)}, ${percent(x.stealShare).padStart(5)} | ` +
          `${percent(x.generatorBusyShare).padStart(6)}, ${percent(x.generatorWaitShare).padStart(6)} | ${verdict(x)}`,
      );
    });
  }
  return lines;
}

/**
 * A first reading of one round's tail. A request waits at most for the event-loop turn in progress
 * when it arrives and then for its own turn, and the loop's delay is a turn's length (a stall, a
 * GC pause or the thread waiting for a CPU all lengthen it): a p99 above twice the longest delay
 * (plus the sampler's resolution) was made outside the server's event loop, by the load generator
 * when it waited for its CPU. Within that bound, the server's turns made it: longer because core 0
 * was shared when its event-loop thread waited for a CPU over 5% of the round, by GC when the
 * longest pause is half the longest delay or more, else by the work each turn does (at saturation
 * a turn serves every connection's request once, so a turn's length is the closed loop's latency).
 */
export function verdict(x: Sample): string {
  if (x.loopDelay === null || x.p99Ms === null) return '';
  if (x.p99Ms > 2 * (x.loopDelay.maxMs + LOOP_DELAY_RESOLUTION_MS)) {
    return x.generatorWaitShare !== null && x.generatorWaitShare > 0.05
      ? 'outside the server: wrk waited for its CPU'
      : 'outside the server';
  }
  if (x.runQueueWaitShare !== null && x.runQueueWaitShare > 0.05) return 'server turns: core 0 shared';
  if (x.gcMaxPauseMs !== null && x.gcMaxPauseMs >= x.loopDelay.maxMs / 2) return 'server turns: GC';
  return 'server turns: work per turn';
}

/** loop-delay.mjs's timer period. */
const LOOP_DELAY_RESOLUTION_MS = 2;

const RESULTS_DIR = 'bench-results';

/** The newest earlier results file of the same kind of run (quick or full), if any. */
export function previousResults(root: string, quick: boolean): { file: string; results: BenchResults } | undefined {
  const dir = path.join(root, RESULTS_DIR);
  if (!fs.existsSync(dir)) return undefined;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const file of files.reverse()) {
    try {
      const results = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as BenchResults;
      if (results.schema === 1 && results.options.quick === quick) return { file: path.join(RESULTS_DIR, file), results };
    } catch {
      // an unreadable file is skipped
    }
  }
  return undefined;
}

export function writeResults(root: string, results: BenchResults): string {
  const dir = path.join(root, RESULTS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(RESULTS_DIR, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(path.join(root, file), `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

const change = (before: number, after: number): string => {
  const pct = ((after - before) / before) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
};

/** Per scenario and subject present in both runs: throughput, CPU per op and the first ratio, before → after. */
export function formatChanges(previous: { file: string; results: BenchResults }, current: BenchResults): string {
  const p = previous.results;
  const lines = [
    `Change since ${previous.file} (commit ${p.commit}, load average ${p.loadAverage.start.toFixed(1)} then, ${current.loadAverage.start.toFixed(1)} now):`,
  ];
  for (const [id, scenario] of Object.entries(current.scenarios)) {
    const before = p.scenarios[id];
    if (!before) continue;
    for (const [name, now] of Object.entries(scenario.subjects)) {
      const then = before.subjects[name];
      if (!then) continue;
      const unit = scenario.unit === 'ms' ? 'ms' : scenario.unit;
      const figure = (s: Sample): number => (scenario.unit === 'ms' ? 1000 / s.perSecond : s.perSecond);
      const parts = [
        `${unit} ${fixed(figure(then.median), 0)} → ${fixed(figure(now.median), 0)} (${change(figure(then.median), figure(now.median))})`,
        `CPU/${scenario.op} ${change(then.median.cpuMicrosPerOp, now.median.cpuMicrosPerOp)}`,
      ];
      const ref = Object.keys(now.vs)[0];
      const q0 = ref === undefined ? undefined : then.vs[ref];
      const q1 = ref === undefined ? undefined : now.vs[ref];
      if (!now.reference && q0 && q1) parts.push(`CPU × ${ref} ${fixed(q0.cpu, 2)} → ${fixed(q1.cpu, 2)}`);
      const c0 = then.median.redisCommandsPerOp;
      const c1 = now.median.redisCommandsPerOp;
      if (c0 !== null && c1 !== null && c0 !== undefined) parts.push(`Redis commands/${scenario.op} ${fixed(c0, 2)} → ${fixed(c1, 2)}`);
      lines.push(`  ${id.padEnd(7)} ${name}: ${parts.join(', ')}`);
    }
  }
  return lines.join('\n');
}
