/**
 * Where a request the limiter accepted is counted once decided: the store's usage_daily through
 * the usage buffer (usage-buffer.ts, flushed every `flushIntervalMs`), and, for a plan without a
 * daily quota, the shared day counter through the day-count batch (day-count-batch.ts, at most a
 * second late: docs/decisions.md "Plans, rate limits and quotas"). It also answers what the two
 * hold that the shared counter does not: the seed of a missing day counter, and the exact figure a
 * reader on this node sees.
 */
import type { Logger } from '../log.js';
import type { UsageScope } from '../store/types.js';
import type { CallBudgets } from './call-budget.js';
import type { CounterBackend } from './counters.js';
import { DayCountBatch, type DayCount } from './day-count-batch.js';
import type { LimitRequest } from './types.js';
import { UsageBuffer, type UsageSink } from './usage-buffer.js';

/** One account's UTC day in one scope, and the key of its shared day counter. */
export interface DaySlot {
  key: string;
  accountId: string;
  day: string;
  scope: UsageScope;
}

export interface AcceptedCountsOptions {
  store: UsageSink;
  logger?: Pick<Logger, 'warn' | 'error'>;
  now: () => number;
  /** Called on each usage flush the store refuses (sha224d_usage_flush_failures_total). */
  onFlushFailed: () => void;
}

export class AcceptedCounts {
  private readonly buffer: UsageBuffer;
  private readonly batch: DayCountBatch;

  constructor(
    private readonly counters: CounterBackend,
    private readonly budgets: CallBudgets,
    options: AcceptedCountsOptions,
  ) {
    this.buffer = new UsageBuffer(options.store, options.logger, { now: options.now, onFlushFailed: options.onFlushFailed });
    this.batch = new DayCountBatch((entry) => this.addDayCount(entry));
  }

  /** One accepted request in the store's account total, and its credential's breakdown when it names one. */
  record(slot: DaySlot, req: LimitRequest): void {
    const breakdown = req.credential === undefined ? undefined : { credential: req.credential, generation: req.generation };
    this.buffer.add(slot.accountId, slot.day, slot.scope, 1, breakdown);
  }

  /** One accepted request of a plan without a daily quota, on its way to the shared day counter. */
  batchDay(slot: DaySlot): void {
    this.batch.add(slot.key, slot.accountId, slot.day, slot.scope);
  }

  /** Whether this node still holds counts for the day counter `key` that it has not added to it. */
  hasBatched(key: string): boolean {
    return this.batch.has(key);
  }

  /**
   * A missing day counter starts from the store's figure plus this node's counts not yet in the
   * store, less this node's counts still in the batch: those reach the counter when it flushes.
   */
  seed(slot: DaySlot): () => Promise<number> {
    return () => this.buffer.seed(slot.accountId, slot.day, slot.scope, () => this.batch.unapplied(slot.key));
  }

  /**
   * The day's count as `peek` reads it from the shared counter, plus this node's batched counts.
   * No flush runs during the read, so each of this node's batched counts is in the counter or in
   * `unapplied`, never in both: exact for this node, other nodes' counts up to a day-count flush late.
   */
  dayUsed(slot: DaySlot, peek: () => Promise<number>): Promise<number> {
    return this.batch.exclusive(async () => (await peek()) + this.batch.unapplied(slot.key));
  }

  /** Seconds since the oldest count the store has not acknowledged was added (sha224d_usage_flush_lag_seconds). */
  lagSeconds(): number {
    return this.buffer.lagSeconds();
  }

  /** Accepted counts to the store; rejects if it refused them (kept for the next flush). */
  flushToStore(): Promise<void> {
    return this.buffer.flush();
  }

  /** The batched day counts to the shared counters; rejects if any were refused (kept for the next flush). */
  flushDayCounts(): Promise<void> {
    return this.batch.flush();
  }

  /**
   * Both flushes, whatever the other's outcome; the store's failure is the one reported first. One
   * after the other: a day counter seeded while the store commits a batch could count it twice.
   */
  async flushAll(): Promise<void> {
    const dayCounts = await this.batch.flush().then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    await this.buffer.flush();
    if (dayCounts) throw dayCounts.err;
  }

  private async addDayCount(entry: DayCount): Promise<void> {
    const seed = this.seed(entry);
    await this.budgets.within(({ guard }) => guard(() => this.counters.addToDay(entry.key, entry.day, entry.count, seed)));
  }
}
