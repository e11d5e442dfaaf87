/**
 * Accepted requests on their way to the SQL store's usage_daily. Each node adds its own accepted
 * counts (atomic adds, so nodes never overwrite each other); a crash loses at most the counts since
 * the last successful flush on that node.
 *
 * Each flush is one transaction with an id (`store.applyUsage`): the account totals, and their
 * per-credential breakdown (usage_key_daily, the dashboard's usage page) when a count names its
 * credential. A flush that fails is sent again as it was, same id and same counts, before anything
 * counted since: the store skips an id it has applied, so a flush whose COMMIT succeeded but whose
 * answer was lost is never counted twice (docs/decisions.md "Plans, rate limits and quotas").
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.js';
import { SharedCalls } from '../shared-calls.js';
import type { AccountStore, KeyUsageEntry, UsageGeneration, UsageScope } from '../store/types.js';

/** What the buffer writes to and seeds from. */
export type UsageSink = Pick<AccountStore, 'applyUsage' | 'getUsage'>;

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

/** A flush handed to the store and not yet acknowledged: sent again unchanged until it is. */
interface Unacknowledged {
  id: string;
  totals: Map<string, Entry>;
  byKey: Map<string, KeyUsageEntry>;
  /** When its oldest count was added. */
  since: number | undefined;
}

export class UsageBuffer {
  /** Counted, not yet part of a flush. */
  private pending = new Map<string, Entry>();
  /** Per-credential counts not yet part of a flush. */
  private pendingByKey = new Map<string, KeyUsageEntry>();
  /** The flush handed to the store and not acknowledged (in flight, or refused and kept). */
  private unacknowledged: Unacknowledged | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** entry key → the store read under way for its seed (seed()). */
  private readonly seeding = new SharedCalls<number>();
  /** When the oldest count in `pending` was added: the flush lag (docs/operating.md). */
  private pendingSince: number | undefined;

  constructor(
    private readonly store: UsageSink,
    private readonly logger?: Pick<Logger, 'warn' | 'error'>,
    private readonly options: { now?: () => number; onFlushFailed?: () => void; newFlushId?: () => string } = {},
  ) {}

  /** Seconds since the oldest count not yet acknowledged by the store was added; 0 when none is pending. */
  lagSeconds(): number {
    const since = Math.min(this.pendingSince ?? Infinity, this.unacknowledged?.since ?? Infinity);
    return since === Infinity ? 0 : Math.max(0, ((this.options.now ?? Date.now)() - since) / 1000);
  }

  add(accountId: string, day: string, scope: UsageScope, count: number, breakdown?: UsageBreakdown): void {
    this.pendingSince ??= (this.options.now ?? Date.now)();
    addTo(this.pending, { accountId, day, scope, count });
    if (breakdown) addKeyEntry(this.pendingByKey, { accountId, day, scope, count, ...breakdown });
  }

  /**
   * This node's counts the store may not hold yet. Seeding a lost day counter adds them to the
   * store's figure, so Redis losing its data never under-counts this node. (If a flush commits
   * between the read and its acknowledgement the seed over-counts by that batch: the safe side.)
   */
  unflushed(accountId: string, day: string, scope: UsageScope): number {
    const key = entryKey(accountId, day, scope);
    return (this.pending.get(key)?.count ?? 0) + (this.unacknowledged?.totals.get(key)?.count ?? 0);
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
   * everything counted before the call. A flush the store refused is kept as it is and sent first
   * next time; the promise rejects with the refusal.
   */
  flush(): Promise<void> {
    const run = this.chain.then(() => this.flushOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<void> {
    if (this.unacknowledged) await this.send(this.unacknowledged);
    if (this.pending.size === 0 && this.pendingByKey.size === 0) return;
    // Counts added from here on go to a fresh pending map: never into a flush that has an id.
    const next: Unacknowledged = {
      id: (this.options.newFlushId ?? randomUUID)(),
      totals: this.pending,
      byKey: this.pendingByKey,
      since: this.pendingSince,
    };
    this.pending = new Map();
    this.pendingByKey = new Map();
    this.pendingSince = undefined;
    this.unacknowledged = next;
    await this.send(next);
  }

  private async send(flush: Unacknowledged): Promise<void> {
    try {
      await this.store.applyUsage({ id: flush.id, totals: [...flush.totals.values()], byKey: [...flush.byKey.values()] });
    } catch (err) {
      this.options.onFlushFailed?.();
      // A RangeError is the store refusing the flush's contents before writing anything: sending
      // it again cannot succeed, and keeping it would hold back every later count.
      const invalid = err instanceof RangeError;
      if (invalid) this.unacknowledged = undefined;
      this.logger?.error(
        { err, flushId: flush.id, entries: flush.totals.size + flush.byKey.size },
        invalid ? 'usage flush refused as invalid; its counts are dropped' : 'usage flush failed; sent again at the next flush',
      );
      throw err;
    }
    this.unacknowledged = undefined;
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
