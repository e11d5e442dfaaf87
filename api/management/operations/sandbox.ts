/** The sandbox page: where the sandbox is, its usage today and over 30 days (counted apart from production). */
import { assertCan } from '../../sessions/policy.js';
import type { SandboxResponse } from '../schemas/sandbox.js';
import type { Actor, ManagementContext } from './context.js';
import { dayRange } from './usage.js';
import { iso } from './views.js';

export async function sandboxOp(ctx: ManagementContext, actor: Actor): Promise<SandboxResponse> {
  assertCan(actor.role, 'sandbox.read');
  const days = dayRange(ctx.now(), 30);
  const [live, stored] = await Promise.all([
    ctx.limiter.usage(actor.account.id, actor.account.plan, true),
    ctx.store.keyUsage.listDaily(actor.account.id, 'sandbox', days[0]!, days[days.length - 1]!),
  ]);
  const counts = new Map(stored.map((d) => [d.day, d.count]));
  const perDay = days.map((day) => ({ day, count: counts.get(day) ?? 0 }));
  perDay[perDay.length - 1]!.count = Math.max(perDay[perDay.length - 1]!.count, live.used);
  const base = ctx.sandboxUrl ?? '$SANDBOX';
  return {
    url: ctx.sandboxUrl,
    today: { used: live.used, quota: live.dailyQuota, resetsAt: iso(live.resetTime) },
    days: perDay,
    example: `curl -s "${base}/v1/hash/text" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"text":"hello world"}'`,
  };
}
