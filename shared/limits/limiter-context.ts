/**
 * What the parts of one limiter share: its plans, counters and clock, the deadline of its counter
 * operations (call-budget.ts) and where accepted requests are counted (accepted-counts.ts). The
 * decision (consume.ts) and the usage read (usage-snapshot.ts) take it as their first argument, so
 * each is a plain function of the limiter's state.
 */
import type { Logger } from '../log.js';
import { quotaDayRedisKey, rateWindowRedisKey } from '../naming.js';
import type { UsageScope } from '../store/types.js';
import type { AcceptedCounts, DaySlot } from './accepted-counts.js';
import type { CallBudgets } from './call-budget.js';
import type { CounterBackend } from './counters.js';
import type { PlanCatalog } from './plans.js';
import { utcDayOf, type RateRule } from './rules.js';

export interface LimiterContext {
  catalog: PlanCatalog;
  counters: CounterBackend;
  /** Base of every counter key (LIMITS_KEY_BASE, namespaced per deployment or test). */
  base: string;
  /** Milliseconds since the epoch. */
  now: () => number;
  budgets: CallBudgets;
  counts: AcceptedCounts;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

/** Sandbox traffic is counted apart from production (docs/api.md "Other limits"). */
export function scopeOf(sandbox: boolean): UsageScope {
  return sandbox ? 'sandbox' : 'production';
}

/** The UTC day of `at` for an account in one scope, and its shared day counter's key. */
export function daySlot(ctx: LimiterContext, accountId: string, scope: UsageScope, at: number): DaySlot {
  const day = utcDayOf(at);
  return { key: quotaDayRedisKey(ctx.base, scope, accountId, day), accountId, day, scope };
}

/** The counter of one rate window: shared by every key of the account (RateRule.bucket). */
export function rateKey(ctx: LimiterContext, scope: UsageScope, accountId: string, rule: RateRule, index: number): string {
  return rateWindowRedisKey(ctx.base, scope, rule.bucket, accountId, index);
}
