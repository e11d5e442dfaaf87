/** The account: plan, today's usage against the quota, rate limits, service status, account-wide IP allow-list. */
import { AllowedIps, Id, Plan, Role, Timestamp, z } from './common.js';

const NullableCount = z.number().int().nullable().openapi({ description: 'null: no limit' });

export const AccountOverviewResponse = z
  .object({
    account: z.object({ id: Id, name: z.string(), plan: Plan, createdAt: Timestamp, allowedIps: z.array(z.string()) }),
    role: Role,
    today: z.object({ used: z.number().int().min(0), quota: NullableCount, remaining: NullableCount, resetsAt: Timestamp }),
    limits: z.object({
      v1PerSecond: NullableCount,
      v1PerMinute: NullableCount,
      v2PerSecond: NullableCount,
      v1MaxFileBytes: z.number().int(),
      v2MaxFileBytes: z.number().int(),
      wsConnections: NullableCount,
    }),
    /** The rates a development key of this plan gets (shared/limits/rules.ts rateFor): never unlimited. */
    developmentLimits: z.object({
      v1PerSecond: z.number().int().min(1),
      v1PerMinute: z.number().int().min(1),
      v2PerSecond: z.number().int().min(1),
    }),
    /** What the plan offers (docs/api.md "Authentication" rules 6–8). */
    features: z.object({ ipAllowList: z.boolean(), oauth: z.boolean(), jwt: z.boolean() }),
    status: z.enum(['operational', 'degraded']),
  })
  .openapi('MgmtAccountOverview');

export const AccountIpAllowListRequest = z.object({ allowedIps: AllowedIps }).openapi('MgmtAccountIpAllowListRequest');
export const AccountIpAllowListResponse = z.object({ allowedIps: z.array(z.string()) }).openapi('MgmtAccountIpAllowListResponse');

export type AccountOverviewResponse = z.infer<typeof AccountOverviewResponse>;
export type AccountIpAllowListRequest = z.infer<typeof AccountIpAllowListRequest>;
export type AccountIpAllowListResponse = z.infer<typeof AccountIpAllowListResponse>;
