/**
 * What `npm run bench` runs, from flags and environment (flags win):
 *
 *   --quick            (BENCH_QUICK=1)        2 rounds of 2 s, a 64 MiB stream, one WebSocket case
 *   --rounds N         (BENCH_ROUNDS)         interleaved rounds per scenario (default 5)
 *   --duration S       (BENCH_DURATION_SEC)   seconds of load per measurement (default 4; wrk takes whole seconds)
 *   --stream-mib N     (BENCH_STREAM_MIB)     size of the /v2/stream upload (default 256)
 *   --connections N    (BENCH_CONNECTIONS)    wrk connections for /v2/hash (default 64)
 *   --only a,b         (BENCH_ONLY)           scenarios to run: hash, batch, ws, stream, cold, scaleout
 *   BENCH_REDIS_URL    an existing Redis instead of a private one (its CPU then includes other clients')
 *   BENCH_NODE_FLAGS   node flags of the measured sha224d processes instead of the start scripts' (fleet.ts)
 */
export const SCENARIOS = ['hash', 'batch', 'ws', 'stream', 'cold', 'scaleout'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  quick: boolean;
  rounds: number;
  durationSec: number;
  streamBytes: number;
  connections: number;
  only: ScenarioName[];
  redisUrl: string | undefined;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') flags.set('quick', '1');
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      flags.set(name, value);
    } else throw new Error(`unknown argument ${arg}; see test/bench/options.ts`);
  }
  const quick = (flags.get('quick') ?? env.BENCH_QUICK ?? '') === '1' || env.BENCH_QUICK === 'true';
  const int = (flag: string, variable: string, fallback: number, min: number): number => {
    const raw = flags.get(flag) ?? env[variable];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} (${variable}) must be an integer ≥ ${min}, got ${raw}`);
    return n;
  };
  const onlyRaw = flags.get('only') ?? env.BENCH_ONLY ?? '';
  const only = onlyRaw === '' ? [...SCENARIOS] : onlyRaw.split(',').map((s) => s.trim());
  for (const name of only) {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`--only: unknown scenario ${name} (${SCENARIOS.join(', ')})`);
  }
  return {
    quick,
    rounds: int('rounds', 'BENCH_ROUNDS', quick ? 2 : 5, 1),
    durationSec: int('duration', 'BENCH_DURATION_SEC', quick ? 2 : 4, 1),
    streamBytes: int('stream-mib', 'BENCH_STREAM_MIB', quick ? 64 : 256, 1) * 1024 * 1024,
    connections: int('connections', 'BENCH_CONNECTIONS', 64, 1),
    only: only as ScenarioName[],
    redisUrl: env.BENCH_REDIS_URL || undefined,
  };
}
