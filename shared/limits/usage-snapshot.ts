/**
 * An account's usage as /v1/usage and the v1 Set B status report it (docs/api.md "Resources": the
 * v1 Set A usage and the v1 Set B status): the plan's limits for the key type asked about,
 * the day's count, exact for this node (accepted-counts.ts `dayUsed`), and the live v1 Set B minute
 * window. Reading counts nothing: the read's own request was counted by `consume`.
 */
import type { Budget } from './call-budget.js';
import { daySlot, rateKey, scopeOf, type LimiterContext } from './limiter-context.js';
import { nextUtcMidnightMs, rateFor, rateRule, windowIndex, windowResetUnix } from './rules.js';
import type { UsageSnapshot } from './types.js';
import type { KeyType, Plan } from '../store/types.js';

export function readUsage(ctx: LimiterContext, accountId: string, plan: Plan, sandbox: boolean, keyType: KeyType): Promise<UsageSnapshot> {
  return ctx.budgets.within((budget) => usageWithin(ctx, budget, accountId, plan, sandbox, keyType));
}

async function usageWithin(
  ctx: LimiterContext,
  { guard }: Budget,
  accountId: string,
  plan: Plan,
  sandbox: boolean,
  keyType: KeyType,
): Promise<UsageSnapshot> {
  const { catalog, counters, counts } = ctx;
  const at = ctx.now();
  const slot = daySlot(ctx, accountId, scopeOf(sandbox), at);
  const limits = catalog.plans[plan];
  const used = await counts.dayUsed(slot, () => guard(() => counters.peekQuota(slot.key, slot.day, counts.seed(slot))));

  const minuteRule = rateRule(catalog, plan, keyType, 'v1b');
  const minuteIndex = windowIndex(at, 60);
  let minuteRemaining: number | null = null;
  if (minuteRule) {
    const inWindow = await guard(() => counters.peek(rateKey(ctx, slot.scope, accountId, minuteRule, minuteIndex), 60));
    minuteRemaining = Math.max(0, minuteRule.limit - inWindow);
  }

  return {
    plan,
    tier: limits.v1Tier,
    sandbox,
    dailyQuota: limits.dailyQuota,
    used,
    remaining: limits.dailyQuota === null ? null : Math.max(0, limits.dailyQuota - used),
    resetTime: new Date(nextUtcMidnightMs(at)),
    requestsPerSecond: {
      v1: rateFor(catalog, keyType, limits.v1PerSecond, 'second'),
      v2: rateFor(catalog, keyType, limits.v2PerSecond, 'second'),
    },
    requestsPerMinute: minuteRule?.limit ?? null,
    minuteWindow: {
      limit: minuteRule?.limit ?? null,
      remaining: minuteRemaining,
      resetAtUnix: windowResetUnix(minuteIndex, 60),
    },
    maxFileBytes: { v1: limits.v1MaxFileBytes, v2: limits.v2MaxFileBytes },
    wsConnections: limits.wsConnections,
  };
}
