/**
 * Accepted requests of plans without a daily quota, on their way to the shared day counter.
 *
 * Such a request has nothing to check against the day's count, so it costs no counter operation:
 * the limiter adds it here, and `flush()` (at most a second later, and at shutdown) adds each day
 * counter's batch in one operation (docs/decisions.md "Plans, rate limits and quotas"). Until then
 * the counts are this node's alone: `unapplied()` is what a reader on this node adds to the shared
 * figure, and what a counter seeded from the store must leave out.
 *
 * Flushes and `exclusive()` sections run one at a time, so a section never sees a batch that is
 * half applied: the shared counter holds it, or `unapplied()` does, never both.
 */
import type { UsageScope } from '../store/types.js';

/** One day counter's batch: the counter's key, and what names its day in the store (for a seed). */
export interface DayCount {
  key: string;
  accountId: string;
  day: string;
  scope: UsageScope;
  count: number;
}

export class DayCountBatch {
  /** Counted, not yet handed to the counters. */
  private pending = new Map<string, DayCount>();
  /** Handed to the counters, not yet acknowledged. */
  private inFlight = new Map<string, DayCount>();
  private chain: Promise<unknown> = Promise.resolve();

  /** `write` adds one batch to its day counter; a rejection keeps the batch for the next flush. */
  constructor(private readonly write: (entry: DayCount) => Promise<void>) {}

  add(key: string, accountId: string, day: string, scope: UsageScope): void {
    const existing = this.pending.get(key);
    if (existing) existing.count += 1;
    else this.pending.set(key, { key, accountId, day, scope, count: 1 });
  }

  /** Whether requests counted under `key` still wait for a flush. */
  has(key: string): boolean {
    return this.pending.has(key);
  }

  /** This node's counts under `key` that the shared counter does not hold yet. */
  unapplied(key: string): number {
    return (this.pending.get(key)?.count ?? 0) + (this.inFlight.get(key)?.count ?? 0);
  }

  /**
   * Add every pending batch to its counter. Flushes run one at a time, so a caller's flush covers
   * everything counted before the call. Batches that could not be written stay pending and the
   * promise rejects with the first failure.
   */
  flush(): Promise<void> {
    return this.exclusive(() => this.flushOnce());
  }

  /** Run `section` with no flush under way, after those already queued. */
  exclusive<T>(section: () => Promise<T>): Promise<T> {
    const run = this.chain.then(section);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<void> {
    if (this.pending.size === 0) return;
    this.inFlight = this.pending;
    this.pending = new Map();
    const entries = [...this.inFlight.values()];
    const results = await Promise.allSettled(entries.map((entry) => this.write(entry)));
    let failed = false;
    let firstError: unknown;
    results.forEach((result, i) => {
      const entry = entries[i]!;
      this.inFlight.delete(entry.key);
      if (result.status === 'fulfilled') return;
      if (!failed) firstError = result.reason;
      failed = true;
      // Kept for the next flush. A write that failed after the counter took it (a connection lost
      // mid-reply) is then counted twice: the safe side, as usage-buffer.ts.
      const existing = this.pending.get(entry.key);
      if (existing) existing.count += entry.count;
      else this.pending.set(entry.key, entry);
    });
    if (failed) throw firstError;
  }
}
