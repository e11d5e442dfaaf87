/**
 * `npm run bench:uploads [-- --mib N --patches N --rounds N --modes embedded,distributed]`: one
 * resumable upload through /v2/uploads (tus, N equal PATCHes over one keep-alive connection)
 * against the same bytes through POST /v2/stream on the same server process, in interleaved
 * rounds (measure.ts), checked against its targets (README "Performance"):
 *
 *   - MB/s of the upload ≥ 0.8× /v2/stream's (the median of per-round ratios);
 *   - the server's peak RSS during the upload ≤ 150 MiB (VmHWM reset before each round; the worst round);
 *   - the last PATCH answered ≤ 50 ms after its last byte left the client (the worst round):
 *     the digest comes from the hash state, no stored byte is read again.
 *
 * Servers run as `npm run bench` runs them (fleet.ts: dist/ bundles, default configuration, pinned
 * to core 0, clients on core 1). Every upload's digest is checked against node:crypto's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Fleet } from './fleet.js';
import { measureRounds, median, type LoadRun, type Subject } from './measure.js';
import { pinHarness, placement, ROOT, runPinned, type ServerProcess } from './procs.js';
import { formatScenario, scenarioResult } from './report.js';
import type { Scenario } from './scenarios.js';

const MiB = 1024 * 1024;
const TARGET = { ratio: 0.8, peakRssBytes: 150 * MiB, lastByteToAnswerMs: 50 };
const MODES = ['embedded', 'distributed'] as const;
type Mode = (typeof MODES)[number];

interface Options {
  bytes: number;
  patches: number;
  rounds: number;
  modes: Mode[];
}

function parse(argv: string[]): Options {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]!;
    const value = argv[i + 1];
    if (!name.startsWith('--') || value === undefined)
      throw new Error(`usage: uploads.ts [--mib N] [--patches N] [--rounds N] [--modes a,b]`);
    flags.set(name.slice(2), value);
  }
  const int = (name: string, fallback: number): number => {
    const n = Number(flags.get(name) ?? fallback);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return n;
  };
  const modes = (flags.get('modes') ?? MODES.join(',')).split(',') as Mode[];
  for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: unknown ${m} (${MODES.join(', ')})`);
  return { bytes: int('mib', 1024) * MiB, patches: int('patches', 8), rounds: int('rounds', 3), modes };
}

interface Timed extends LoadRun {
  lastByteToAnswerMs: number;
  /** From the last PATCH's answer to its job read back as completed with the digest. */
  jobMs?: number;
}

const client = (name: string): string => path.join(ROOT, 'test', 'bench', name);

async function viaStream(fleet: Fleet, origin: string, bytes: number): Promise<Timed> {
  const out = await runPinned('load', process.execPath, [client('stream-client.mjs'), `${origin}/v2/stream`, String(bytes), fleet.apiKey]);
  const r = JSON.parse(out) as { status: number; seconds: number; sent_digest: string; body: string; last_byte_to_answer_ms: number };
  const reply = JSON.parse(r.body) as { hash?: string; size?: number };
  if (r.status !== 200 || reply.hash !== r.sent_digest || reply.size !== bytes) {
    throw new Error(`/v2/stream answered ${r.status} ${r.body.slice(0, 300)}`);
  }
  return { ops: bytes / 1e6, seconds: r.seconds, lastByteToAnswerMs: r.last_byte_to_answer_ms };
}

async function viaUploads(fleet: Fleet, origin: string, bytes: number, patches: number): Promise<Timed> {
  const out = await runPinned('load', process.execPath, [
    client('uploads-client.mjs'),
    origin,
    String(bytes),
    String(patches),
    fleet.apiKey,
  ]);
  const r = JSON.parse(out) as {
    seconds: number;
    last_byte_to_answer_ms: number;
    job_ms: number;
    sent_digest: string;
    job: { status: string; hash?: string; size?: number };
  };
  if (r.job.status !== 'completed' || r.job.hash !== r.sent_digest || r.job.size !== bytes) {
    throw new Error(`/v2/uploads: the job is ${JSON.stringify(r.job)}, sent ${r.sent_digest}`);
  }
  return { ops: bytes / 1e6, seconds: r.seconds, lastByteToAnswerMs: r.last_byte_to_answer_ms, jobMs: r.job_ms };
}

interface ModeRun {
  scenario: Scenario;
  lastByteMs: { stream: number[]; uploads: number[] };
  jobMs: number[];
}

async function modeRun(fleet: Fleet, mode: Mode, options: Options): Promise<ModeRun> {
  const proc: ServerProcess = mode === 'embedded' ? await fleet.embedded() : await fleet.apiInline();
  const redis = mode === 'distributed' ? await fleet.redisServer() : undefined;
  // The finished upload's `file` job carries its digest; a worker records it without reading a byte.
  if (mode === 'distributed') await fleet.worker();
  const lastByteMs = { stream: [] as number[], uploads: [] as number[] };
  const jobMs: number[] = [];
  const subject = (name: string, reference: boolean, run: (bytes: number) => Promise<Timed>, times: number[]): Subject => ({
    name,
    reference,
    cpuProcesses: () => [{ name: redis ? 'api' : 'server', pid: proc.pid }, ...(redis ? [{ name: 'redis', pid: redis.pid }] : [])],
    rssPid: () => proc.pid,
    logs: () => [proc],
    ...(redis ? { redisUrl: redis.url } : {}),
    run: async () => {
      const r = await run(options.bytes);
      times.push(r.lastByteToAnswerMs);
      if (r.jobMs !== undefined) jobMs.push(r.jobMs);
      return r;
    },
    warmUp: () => run(64 * MiB),
  });
  const label = mode === 'embedded' ? 'sha224d embedded' : 'sha224d distributed API node (+Redis)';
  const scenario: Scenario = {
    id: `uploads-${mode}`,
    group: 'stream',
    title: `${label}: ${options.bytes / MiB} MiB through /v2/uploads in ${options.patches} PATCHes and through /v2/stream`,
    unit: 'MB/s',
    op: 'MB',
    subjects: [
      subject('POST /v2/stream', true, (bytes) => viaStream(fleet, proc.url, bytes), lastByteMs.stream),
      subject(
        `/v2/uploads, ${options.patches} PATCHes`,
        false,
        (bytes) => viaUploads(fleet, proc.url, bytes, options.patches),
        lastByteMs.uploads,
      ),
    ],
  };
  return { scenario, lastByteMs, jobMs };
}

const verdict = (met: boolean): string => (met ? 'met' : 'NOT MET');
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  pinHarness();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-bench-uploads-'));
  const fleet = await Fleet.create(workDir, process.env.BENCH_REDIS_URL || undefined);
  console.log(`sha224d /v2/uploads benchmark: ${os.cpus().length} cores, ${placement()}; ${options.rounds} interleaved rounds\n`);
  let allMet = true;
  try {
    for (const mode of options.modes) {
      const { scenario, lastByteMs, jobMs } = await modeRun(fleet, mode, options);
      process.stdout.write(`${scenario.title}: `);
      const samples = await measureRounds(scenario.subjects, options.rounds, () => process.stdout.write('.'));
      const result = scenarioResult(scenario, samples);
      console.log(`\n${formatScenario(result)}`);
      const [stream, uploads] = scenario.subjects.map((s) => result.subjects[s.name]!);
      const ratio = uploads!.vs[scenario.subjects[0]!.name]!.throughput;
      const peak = Math.max(...uploads!.rounds.map((s) => s.peakRssBytes ?? Infinity));
      const worstMs = Math.max(...lastByteMs.uploads);
      const checks = [
        `  uploads ${uploads!.median.perSecond.toFixed(0)} MB/s, stream ${stream!.median.perSecond.toFixed(0)} MB/s: ` +
          `${ratio.toFixed(3)}× (target ≥ ${TARGET.ratio}×) ${verdict(ratio >= TARGET.ratio)}`,
        `  peak RSS during the upload ${mib(peak)} (worst round; target ≤ ${mib(TARGET.peakRssBytes)}) ${verdict(peak <= TARGET.peakRssBytes)}`,
        `  last byte to the last PATCH's answer ${median(lastByteMs.uploads).toFixed(1)} ms median, ${worstMs.toFixed(1)} ms worst ` +
          `(target ≤ ${TARGET.lastByteToAnswerMs} ms) ${verdict(worstMs <= TARGET.lastByteToAnswerMs)}; ` +
          `/v2/stream's ${median(lastByteMs.stream).toFixed(1)} ms median`,
        `  then GET /v2/jobs/{id} completed with the digest ${median(jobMs).toFixed(1)} ms median after that answer, ${Math.max(...jobMs).toFixed(1)} ms worst`,
      ];
      allMet &&= ratio >= TARGET.ratio && peak <= TARGET.peakRssBytes && worstMs <= TARGET.lastByteToAnswerMs;
      console.log(`${checks.join('\n')}\n`);
      await fleet.stopServers();
    }
  } finally {
    await fleet.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  console.log(allMet ? 'every target met' : 'a target was missed');
  process.exitCode = allMet ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
