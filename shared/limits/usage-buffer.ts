/**
 * Accepted requests on their way to the SQL store's usage_daily. Each node adds its
 * own accepted counts with `store.addUsage` (an atomic add, so nodes never overwrite each other);
 * a crash loses at most the counts since the last successful flush on that node.
 *
 * When the store has a `keyUsage` part and a count names its credential, the same flush also adds
 * it to usage_key_daily per (credential, generation), the breakdown the dashboard's usage page
 * shows. The account total stays the authority for quotas; the breakdown is written beside it with
 * the same retry rule (a refused count stays pending).
 */
import type { Logger } from '../log.js';
import { SharedCalls } from '../shared-calls.js';
import type { AccountStore, KeyUsageEntry, KeyUsageStore, UsageGeneration, UsageScope } from '../store/types.js';

/** What the buffer writes to: the account totals, and optionally the per-credential breakdown. */
export type UsageSink = Pick<AccountStore, 'addUsage' | 'getUsage'> & { keyUsage?: Pick<KeyUsageStore, 'add'> };

/** The credential a count belongs to (an API key id, `oauth:<client id>`, `jwt:<kid>`) and its generation. */
export interface UsageBreakdown {
  credential: string;
  generation: UsageGeneration;
}

interface Entry {
  accountId: string;
  day: string;
  scope: UsageScope;
  count: number;
}

export class UsageBuffer {
  /** Counted, not yet handed to the store. */
  private pending = new Map<string, Entry>();
  /** Handed to the store, not yet acknowledged. */
  private inFlight = new Map<string, Entry>();
  /** Per-credential counts not yet handed to `store.keyUsage`. */
  private pendingByKey = new Map<string, KeyUsageEntry>();
  private chain: Promise<void> = Promise.resolve();
  /** entry key → the store read under way for its seed (seed()). */
  private readonly seeding = new SharedCalls<number>();
  /** When the oldest count in `pending` (and in `inFlight`) was added: the flush lag (docs/operating.md). */
  private pendingSince: number | undefined;
  private inFlightSince: number | undefined;

  constructor(
    private readonly store: UsageSink,
    private readonly logger?: Pick<Logger, 'warn' | 'error'>,
    private readonly options: { now?: () => number; onFlushFailed?: () => void } = {},
  ) {}

  /** Seconds since the oldest count not yet acknowledged by the store was added; 0 when none is pending. */
  lagSeconds(): number {
    const since = Math.min(this.pendingSince ?? Infinity, this.inFlightSince ?? Infinity);
    return since === Infinity ? 0 : Math.max(0, ((this.options.now ?? Date.now)() - since) / 1000);
  }

  add(accountId: string, day: string, scope: UsageScope, count: number, breakdown?: UsageBreakdown): void {
    this.pendingSince ??= (this.options.now ?? Date.now)();
    addTo(this.pending, { accountId, day, scope, count });
    if (breakdown && this.store.keyUsage) addKeyEntry(this.pendingByKey, { accountId, day, scope, count, ...breakdown });
  }

  /**
   * This node's counts the store may not hold yet. Seeding a lost day counter adds them to the
   * store's figure, so Redis losing its data never under-counts this node. (If a flush commits
   * between the read and its acknowledgement the seed over-counts by that batch: the safe side.)
   */
  unflushed(accountId: string, day: string, scope: UsageScope): number {
    const key = entryKey(accountId, day, scope);
    return (this.pending.get(key)?.count ?? 0) + (this.inFlight.get(key)?.count ?? 0);
  }

  /**
   * The store's count for the day plus this node's unflushed counts, less `addedLater()`: counts
   * the caller adds to the day counter itself afterwards (the limiter's day-count batch). Both are
   * read in one synchronous step after the store read, so no flush can move a count between them.
   * Concurrent seeds of one account's day share one store read: a burst that finds the day's
   * counter missing would otherwise queue one query per request for the pool.
   */
  async seed(accountId: string, day: string, scope: UsageScope, addedLater: () => number = () => 0): Promise<number> {
    const key = entryKey(accountId, day, scope);
    const stored = await this.seeding.run(key, () => this.store.getUsage(accountId, day, scope));
    return stored + this.unflushed(accountId, day, scope) - addedLater();
  }

  /**
   * Hand every pending count to the store. Flushes run one at a time, so a caller's flush covers
   * everything counted before the call. Counts the store refused go back to pending and the
   * promise rejects with the first refusal.
   */
  flush(): Promise<void> {
    const run = this.chain.then(() => this.flushOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<void> {
    if (this.pending.size === 0 && this.pendingByKey.size === 0) return;
    this.inFlight = this.pending;
    this.pending = new Map();
    this.inFlightSince = this.pendingSince;
    this.pendingSince = undefined;
    const entries = [...this.inFlight.entries()];
    const keyEntries = [...this.pendingByKey.values()];
    this.pendingByKey = new Map();
    const keyUsage = this.store.keyUsage;
    const [results, keyResults] = await Promise.all([
      Promise.allSettled(entries.map(([, e]) => this.store.addUsage(e.accountId, e.day, e.scope, e.count))),
      Promise.allSettled(keyEntries.map((e) => (keyUsage ? keyUsage.add(e) : Promise.resolve()))),
    ]);
    let firstError: unknown;
    let failed = 0;
    results.forEach((result, i) => {
      const [key, entry] = entries[i]!;
      this.inFlight.delete(key);
      if (result.status === 'rejected') {
        failed += 1;
        firstError ??= result.reason;
        addTo(this.pending, entry);
      }
    });
    keyResults.forEach((result, i) => {
      if (result.status === 'rejected') {
        failed += 1;
        firstError ??= result.reason;
        addKeyEntry(this.pendingByKey, keyEntries[i]!);
      }
    });
    const since = this.inFlightSince;
    this.inFlightSince = undefined;
    // Refused counts are pending again, as old as they were.
    if (failed > 0 && since !== undefined) this.pendingSince = Math.min(this.pendingSince ?? Infinity, since);
    if (failed > 0) {
      this.options.onFlushFailed?.();
      this.logger?.error(
        { err: firstError, failed, total: entries.length + keyEntries.length },
        'usage flush failed; counts kept for the next flush',
      );
      throw firstError;
    }
  }
}

function addKeyEntry(map: Map<string, KeyUsageEntry>, entry: KeyUsageEntry): void {
  const key = `${entry.scope}\n${entry.day}\n${entry.accountId}\n${entry.credential}\n${entry.generation}`;
  const existing = map.get(key);
  if (existing) existing.count += entry.count;
  else map.set(key, { ...entry });
}

function entryKey(accountId: string, day: string, scope: UsageScope): string {
  return `${scope}\n${day}\n${accountId}`;
}

function addTo(map: Map<string, Entry>, entry: Entry): void {
  const key = entryKey(entry.accountId, entry.day, entry.scope);
  const existing = map.get(key);
  if (existing) existing.count += entry.count;
  else map.set(key, { ...entry });
}
