/**
 * The decision for one request (docs/limits.md "Headers and errors"; the rates and quotas in
 * docs/api.md "Limits"): one hit on the generation's fixed, clock-aligned rate window, then one
 * exact take from the UTC day's quota. A request refused by either counts in neither, so a window's
 * count and the day's count equal what was accepted. The window's limit depends on the plan, the
 * key type (development keys run at a fraction: rules.ts) and the generation; sandbox traffic has
 * counters of its own. A plan without a daily quota has nothing to take: its requests go to the
 * day-count batch and cost no counter operation (docs/decisions.md "Plans, rate limits and quotas").
 */
import { accept, noLimit, refuse, type Figures } from './answers.js';
import type { DaySlot } from './accepted-counts.js';
import type { Budget } from './call-budget.js';
import type { QuotaResult } from './counters.js';
import { daySlot, rateKey, scopeOf, type LimiterContext } from './limiter-context.js';
import { nextUtcMidnightMs, rateRule, windowIndex, windowResetUnix } from './rules.js';
import type { LimitDecision, LimitRequest } from './types.js';
import type { UsageScope } from '../store/types.js';

/** A hit counted in a rate window: its figures, whether it passed the limit, and where to give it back. */
interface RateHit extends Figures {
  over: boolean;
  key: string;
  durationSec: number;
}

/**
 * The decision for a request that needs no counter operation (no rate rule and no daily quota
 * for its plan and key type): the day's count is batched, so nothing is awaited. Undefined when
 * the request needs the counters; then `consume` decides.
 */
export function consumeSync(ctx: LimiterContext, req: LimitRequest): LimitDecision | undefined {
  const takesQuota = ctx.catalog.plans[req.plan].dailyQuota !== null && req.outsideQuota !== true;
  if (takesQuota || rateRule(ctx.catalog, req.plan, req.keyType, req.generation)) return undefined;
  const at = ctx.now();
  if (req.outsideQuota === true) {
    ctx.budgets.assertReachable();
    return noLimit(at);
  }
  const slot = daySlot(ctx, req.accountId, scopeOf(req.sandbox), at);
  ctx.budgets.assertReachable();
  ctx.counts.batchDay(slot);
  ctx.counts.record(slot, req);
  return noLimit(at);
}

export async function consume(ctx: LimiterContext, req: LimitRequest): Promise<LimitDecision> {
  const decided = consumeSync(ctx, req);
  if (decided !== undefined) return decided;
  return ctx.budgets.within((budget) => consumeWithin(ctx, budget, req));
}

async function consumeWithin(ctx: LimiterContext, { guard }: Budget, req: LimitRequest): Promise<LimitDecision> {
  const at = ctx.now();
  const slot = daySlot(ctx, req.accountId, scopeOf(req.sandbox), at);
  const dayResetUnix = nextUtcMidnightMs(at) / 1000;
  const quota = ctx.catalog.plans[req.plan].dailyQuota;

  const rate = await hitRateWindow(ctx, guard, req, slot.scope, at);
  if (rate?.over) {
    await giveBack(ctx, rate);
    return refuse('rate', rate, at);
  }

  let daily: Figures | undefined;
  if (req.outsideQuota === true) {
    // Reading usage: neither refused by the day's quota nor counted in it (LimitRequest.outsideQuota).
  } else if (quota === null) {
    ctx.budgets.assertReachable();
    ctx.counts.batchDay(slot);
  } else {
    const taken = await takeFromQuota(ctx, guard, slot, quota, rate);
    if (!taken.allowed) {
      if (rate) await giveBack(ctx, rate);
      return refuse('quota', { window: 'day', limit: quota, remaining: 0, resetAtUnix: dayResetUnix }, at);
    }
    daily = { window: 'day', limit: quota, remaining: quota - taken.used, resetAtUnix: dayResetUnix };
  }
  if (req.outsideQuota !== true) ctx.counts.record(slot, req);
  return accept(rate, daily, dayResetUnix);
}

/** One hit on the request's rate window; undefined when its rate is unlimited for this plan and key type. */
async function hitRateWindow(
  ctx: LimiterContext,
  guard: Budget['guard'],
  req: LimitRequest,
  scope: UsageScope,
  at: number,
): Promise<RateHit | undefined> {
  const rule = rateRule(ctx.catalog, req.plan, req.keyType, req.generation);
  if (!rule) return undefined;
  const index = windowIndex(at, rule.durationSec);
  const key = rateKey(ctx, scope, req.accountId, rule, index);
  const count = await guard(() => ctx.counters.hit(key, rule.durationSec));
  const over = count > rule.limit;
  const { window, limit, durationSec } = rule;
  return { window, limit, remaining: over ? 0 : limit - count, resetAtUnix: windowResetUnix(index, durationSec), over, key, durationSec };
}

/**
 * One exact take from the day's quota. A take that fails (a 503) gives the request's rate hit
 * back, and the take itself if it lands after the deadline: an unanswered request is not charged.
 */
async function takeFromQuota(
  ctx: LimiterContext,
  guard: Budget['guard'],
  slot: DaySlot,
  quota: number,
  rate: RateHit | undefined,
): Promise<QuotaResult> {
  // The plan gained its quota today: counts batched before must be in the day's count first.
  if (ctx.counts.hasBatched(slot.key)) await ctx.counts.flushDayCounts().catch(() => undefined);
  let take: Promise<QuotaResult> | undefined;
  try {
    return await guard(() => (take = ctx.counters.takeQuota(slot.key, slot.day, quota, ctx.counts.seed(slot))));
  } catch (err) {
    // Answered 503 without a decision: a take that lands after the deadline must not count.
    if (take) giveBackIfTaken(ctx, take, slot);
    if (rate) await giveBack(ctx, rate);
    throw err;
  }
}

/**
 * Best effort: a refused request is answered even if its hit cannot be taken back. It has a budget
 * of its own, so a quota take that used up the request's deadline still gets its rate hit returned.
 */
async function giveBack(ctx: LimiterContext, hit: RateHit): Promise<void> {
  try {
    await ctx.budgets.within(({ guard }) => guard(() => ctx.counters.unhit(hit.key, hit.durationSec)));
  } catch (err) {
    ctx.logger?.warn({ err }, 'could not take back a refused request from its rate window');
  }
}

/**
 * A request answered 503 because its quota take outran the deadline is not charged for it: if
 * the take still lands, one unit is given back (docs/limits.md "Headers and errors").
 */
function giveBackIfTaken(ctx: LimiterContext, take: Promise<QuotaResult>, slot: DaySlot): void {
  take
    .then((late) => (late.allowed ? ctx.counters.giveBackQuota(slot.key, slot.day) : undefined))
    .catch((err: unknown) => ctx.logger?.warn({ err }, 'a quota take that outran its deadline could not be given back'));
}
