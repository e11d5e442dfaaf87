/**
 * Requests per day over the last N days (UTC), by generation and by credential, and the same as
 * CSV. Durable counts come from the store (written every flush interval); today's total is the
 * larger of that and the limiter's live figure, so requests made a second ago already show.
 */
import { ServiceError } from '../../../shared/errors.js';
import type { KeyUsageEntry, UsageScope } from '../../../shared/store/types.js';
import { assertCan } from '../../sessions/policy.js';
import type { UsageCredential, UsageDay, UsageQuery, UsageResponse } from '../schemas/usage.js';
import type { Actor, ManagementContext } from './context.js';

const DAY_MS = 86_400_000;

/** The `count` UTC days ending today, oldest first. */
export function dayRange(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

function groupOf(generation: KeyUsageEntry['generation']): keyof UsageDay['byGeneration'] {
  return generation === 'v2' ? 'v2' : generation === 'ws' ? 'websocket' : 'v1';
}

function kindOf(credential: string): UsageCredential['kind'] {
  return credential.startsWith('oauth:') ? 'oauth' : credential.startsWith('jwt:') ? 'jwt' : 'api_key';
}

export async function usageOp(
  ctx: ManagementContext,
  actor: Actor,
  query: UsageQuery,
  scope: UsageScope = 'production',
): Promise<UsageResponse> {
  assertCan(actor.role, 'usage.read');
  const now = ctx.now();
  const days = dayRange(now, query.days);
  const from = days[0]!;
  const to = days[days.length - 1]!;
  const accountId = actor.account.id;
  const [totals, entries, live, keys, apps] = await Promise.all([
    ctx.store.keyUsage.listDaily(accountId, scope, from, to),
    ctx.store.keyUsage.listByCredential(accountId, scope, from, to),
    ctx.limiter.usage(accountId, actor.account.plan, scope === 'sandbox'),
    ctx.store.listKeys(accountId),
    ctx.store.oauthApps.list(accountId),
  ]);

  const index = new Map(days.map((d, i) => [d, i]));
  const perDay: UsageDay[] = days.map((day) => ({ day, total: 0, byGeneration: { v1: 0, v2: 0, websocket: 0 } }));
  for (const t of totals) {
    const i = index.get(t.day);
    if (i !== undefined) perDay[i]!.total = t.count;
  }
  const stored = perDay[perDay.length - 1]!.total;
  perDay[perDay.length - 1]!.total = Math.max(stored, live.used);
  // Counted live but not flushed yet: unattributed for now, not for good (docs/decisions.md "Dashboard and accounts").
  const pending = Math.max(0, live.used - stored);

  const labels = new Map<string, string>([
    ...keys.map((k): [string, string] => [k.id, `${k.description} (${k.prefix}…)`]),
    ...apps.map((a): [string, string] => [`oauth:${a.id}`, `OAuth: ${a.name}`]),
  ]);
  const byCredential = new Map<string, UsageCredential>();
  for (const e of entries) {
    const i = index.get(e.day);
    if (i === undefined) continue;
    perDay[i]!.byGeneration[groupOf(e.generation)] += e.count;
    let c = byCredential.get(e.credential);
    if (!c) {
      const label = labels.get(e.credential) ?? (e.credential.startsWith('jwt:') ? `JWT key ${e.credential.slice(4)}` : e.credential);
      c = { credential: e.credential, kind: kindOf(e.credential), label, total: 0, perDay: days.map(() => 0) };
      byCredential.set(e.credential, c);
    }
    c.total += e.count;
    c.perDay[i]! += e.count;
  }
  // Breakdowns are written beside the totals; a total never reads below its parts.
  for (const d of perDay) d.total = Math.max(d.total, d.byGeneration.v1 + d.byGeneration.v2 + d.byGeneration.websocket);
  const credentials = [...byCredential.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  return { from, to, generatedAt: now.toISOString(), days: perDay, credentials, pending };
}

/** A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR) is prefixed with ' (OWASP CSV injection). */
function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The usage as CSV: one row per day; total, v1, v2, WebSocket, then one column per credential. */
export async function usageCsvOp(ctx: ManagementContext, actor: Actor, query: UsageQuery): Promise<string> {
  const usage = await usageOp(ctx, actor, query);
  if (usage.days.length === 0) throw new ServiceError('NOT_FOUND');
  const header = ['day', 'total', 'v1', 'v2', 'websocket', ...usage.credentials.map((c) => c.label)];
  const rows = usage.days.map((d, i) => [
    d.day,
    d.total,
    d.byGeneration.v1,
    d.byGeneration.v2,
    d.byGeneration.websocket,
    ...usage.credentials.map((c) => c.perDay[i] ?? 0),
  ]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
