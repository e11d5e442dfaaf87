/**
 * The client benchmark's timing loop. Engine-neutral (performance.now only), so the same code runs
 * in Node and, bundled by esbuild, inside Chromium.
 *
 * Robustness on a shared 2-core machine: every implementation is warmed up and calibrated first,
 * then timed in short rounds that interleave the implementations (rotating the order each round),
 * and the median round is reported. Load spikes then hit all implementations alike, and ratios
 * are taken within one run.
 */

/** Hex SHA-224 of the message. */
export type HashFn = (message: Uint8Array) => string;

export const SIZES = [64, 1024, 65536, 1048576] as const;

export interface BenchOptions {
  rounds: number;
  roundMs: number;
  /** Per implementation and size, before timing: long enough for V8 to finish optimizing (TurboFan compiles off-thread). */
  warmupMs: number;
  sizes?: readonly number[];
}

export interface SizeResult {
  size: number;
  /** Median MB/s (10^6 bytes per second) per implementation. */
  mbps: Record<string, number>;
  /** Every round's MB/s, for spread. */
  samples: Record<string, number[]>;
}

/** Deterministic message bytes. */
export function message(size: number): Uint8Array {
  const m = new Uint8Array(size);
  for (let i = 0; i < size; i++) m[i] = (i * 131 + 7) & 255;
  return m;
}

let sink = 0;

function time(fn: HashFn, msg: Uint8Array, iterations: number): number {
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) sink += fn(msg).length;
  return performance.now() - t0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs every implementation at every size; `check` is the expected hex digest of a message. */
export function runBench(impls: Record<string, HashFn>, check: HashFn, options: BenchOptions): SizeResult[] {
  const names = Object.keys(impls);
  const results: SizeResult[] = [];
  for (const size of options.sizes ?? SIZES) {
    const msg = message(size);
    const expected = check(msg);
    const iterations: Record<string, number> = {};
    for (const name of names) {
      const fn = impls[name]!;
      if (fn(msg) !== expected) throw new Error(`${name} gives a wrong digest at ${size} bytes`);
      // Warm up, growing the batch until one takes a quarter of a round, then calibrate.
      let n = 1;
      for (let spent = 0; spent < options.warmupMs;) {
        const ms = time(fn, msg, n);
        if (ms < options.roundMs / 4) n *= 2;
        spent += ms;
      }
      const perCall = time(fn, msg, n) / n;
      iterations[name] = Math.max(1, Math.round(options.roundMs / Math.max(perCall, 1e-6)));
    }
    const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < options.rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round) % names.length]!;
        const n = iterations[name]!;
        const ms = time(impls[name]!, msg, n);
        samples[name]!.push((size * n) / (ms * 1000));
      }
    }
    results.push({ size, samples, mbps: Object.fromEntries(names.map((n) => [n, median(samples[n]!)])) });
  }
  if (sink === 0.5) console.log(sink); // keeps the results observable
  return results;
}
