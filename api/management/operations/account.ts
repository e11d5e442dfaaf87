/** The account overview (plan, today's usage, limits, status) and the account-wide IP allow-list. */
import { clearApiKeyCache } from '../../../shared/keys/api-keys.js';
import { rateFor } from '../../../shared/limits/rules.js';
import { assertAllowListPlan, IP_ALLOWLIST_PLANS, normalizeAllowList } from '../../../shared/keys/ip-allowlist.js';
import { assertCan } from '../../sessions/policy.js';
import type { AccountIpAllowListRequest, AccountIpAllowListResponse, AccountOverviewResponse } from '../schemas/account.js';
import type { Actor, ManagementContext } from './context.js';
import { iso } from './views.js';

export async function accountOverviewOp(ctx: ManagementContext, actor: Actor): Promise<AccountOverviewResponse> {
  assertCan(actor.role, 'account.read');
  const { account } = actor;
  const [usage, status] = await Promise.all([ctx.limiter.usage(account.id, account.plan, false), ctx.serviceStatus()]);
  const limits = ctx.catalog.plans[account.plan];
  return {
    account: { id: account.id, name: account.name, plan: account.plan, createdAt: iso(account.createdAt), allowedIps: account.allowedIps },
    role: actor.role,
    today: { used: usage.used, quota: usage.dailyQuota, remaining: usage.remaining, resetsAt: iso(usage.resetTime) },
    limits: {
      v1PerSecond: limits.v1PerSecond,
      v1PerMinute: limits.v1PerMinute,
      v2PerSecond: limits.v2PerSecond,
      v1MaxFileBytes: limits.v1MaxFileBytes,
      v2MaxFileBytes: limits.v2MaxFileBytes,
      wsConnections: limits.wsConnections,
    },
    // From the plan table by the limiter's own rule, so the dashboard shows what is enforced.
    developmentLimits: {
      v1PerSecond: developmentRate(ctx, limits.v1PerSecond, 'second'),
      v1PerMinute: developmentRate(ctx, limits.v1PerMinute, 'minute'),
      v2PerSecond: developmentRate(ctx, limits.v2PerSecond, 'second'),
    },
    features: {
      ipAllowList: IP_ALLOWLIST_PLANS.includes(account.plan),
      oauth: account.plan === 'enterprise',
      jwt: account.plan === 'enterprise',
    },
    status,
  };
}

function developmentRate(ctx: ManagementContext, planRate: number | null, window: 'second' | 'minute'): number {
  // A development key's rate is never unlimited: a fraction of the plan's, or a fixed ceiling.
  return rateFor(ctx.catalog, 'development', planRate, window) ?? 1;
}

/** Replaces the account-wide allow-list; a non-empty list needs Pro or Enterprise. */
export async function setAccountIpAllowListOp(
  ctx: ManagementContext,
  actor: Actor,
  input: AccountIpAllowListRequest,
): Promise<AccountIpAllowListResponse> {
  assertCan(actor.role, 'account.ip_allowlist');
  const allowedIps = normalizeAllowList(input.allowedIps);
  assertAllowListPlan(actor.account.plan, allowedIps);
  await ctx.store.keySettings.setAccountAllowedIps(actor.account.id, allowedIps);
  // Cached key lookups carry the account's list: this process sees the new one at once.
  clearApiKeyCache(ctx.store);
  return { allowedIps };
}
