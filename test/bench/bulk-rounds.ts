/**
 * How target 3 of `npm run bench:bulk` (test/bench/bulk-beside.ts) orders its windows and reads
 * them. One pair is an "alone" window (/v2/hash at a fixed rate, no bulk job) and a "beside"
 * window (the same load while a job runs), back to back; pairs alternate their order (AB, BA, AB,
 * …: ABBA), so a load that drifts over the run weighs on both sides alike, and the settings compared
 * (WORKER_BULK_NICE values) alternate their order from round to round for the same reason.
 *
 * The verdict is the median of the per-pair rises (beside p99 / alone p99 − 1), not the median
 * beside against the median alone: the two windows of a pair are seconds apart and see the same
 * background, which the ratio cancels, while the p99 alone moves by more than the target between
 * runs minutes apart; the median then drops the pairs a passing burst of other work fell into.
 * A pair whose job finished before its beside window ended does not count (printed, excluded).
 */
export type Side = 'alone' | 'beside';

/** The order of pair `k` (0-based): alone first for even k, beside first for odd k. */
export function pairOrder(k: number): [Side, Side] {
  return k % 2 === 0 ? ['alone', 'beside'] : ['beside', 'alone'];
}

/** The settings in round `round` (0-based): as given in even rounds, reversed in odd ones. */
export function settingsInRound<T>(settings: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...settings] : [...settings].reverse();
}

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Pair {
  aloneP99Ms: number;
  besideP99Ms: number;
  /** The share of the beside window the job was running through (1: all of it). */
  overlap: number;
}

export interface PairsSummary {
  /** Rises of the pairs that count, in run order. */
  rises: number[];
  medianRise: number;
  medianAloneMs: number;
  medianBesideMs: number;
  /** Pairs left out: the job had finished before the beside window ended. */
  excluded: number;
}

export function summarisePairs(pairs: readonly Pair[]): PairsSummary {
  const counted = pairs.filter((p) => p.overlap >= 1);
  const rises = counted.map((p) => p.besideP99Ms / p.aloneP99Ms - 1);
  return {
    rises,
    medianRise: median(rises),
    medianAloneMs: median(counted.map((p) => p.aloneP99Ms)),
    medianBesideMs: median(counted.map((p) => p.besideP99Ms)),
    excluded: pairs.length - counted.length,
  };
}
