/**
 * Accepted requests on their way to the SQL store's usage_daily (issue 5 §6). Each node adds its
 * own accepted counts with `store.addUsage` (an atomic add, so nodes never overwrite each other);
 * a crash loses at most the counts since the last successful flush on that node.
 */
import type { Logger } from '../log.js';
import type { AccountStore, UsageScope } from '../store/types.js';

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
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<AccountStore, 'addUsage' | 'getUsage'>,
    private readonly logger?: Pick<Logger, 'warn' | 'error'>,
  ) {}

  add(accountId: string, day: string, scope: UsageScope, count: number): void {
    addTo(this.pending, { accountId, day, scope, count });
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

  /** The store's count for the day plus this node's unflushed counts. */
  async seed(accountId: string, day: string, scope: UsageScope): Promise<number> {
    const stored = await this.store.getUsage(accountId, day, scope);
    return stored + this.unflushed(accountId, day, scope);
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
    if (this.pending.size === 0) return;
    this.inFlight = this.pending;
    this.pending = new Map();
    const entries = [...this.inFlight.entries()];
    const results = await Promise.allSettled(
      entries.map(([, e]) => this.store.addUsage(e.accountId, e.day, e.scope, e.count)),
    );
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
    if (failed > 0) {
      this.logger?.error({ err: firstError, failed, total: entries.length }, 'usage flush failed; counts kept for the next flush');
      throw firstError;
    }
  }
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
