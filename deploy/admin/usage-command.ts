/**
 * `usage --account <id> [--days 30] [--json]`: an account's accepted requests per UTC day, from
 * the SQL store (production by generation, and the sandbox apart: the sandbox does not count
 * against production, docs/api.md "Overview"). Counts reach the store every USAGE_FLUSH_INTERVAL_MS, so today's
 * figure may trail the server's live one by that much.
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../../shared/config.js';
import type { KeyUsageEntry } from '../../shared/store/types.js';
import { reportingAction, table } from './output.js';
import { openAdminStore } from './with-store.js';

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;

export interface UsageDayRow {
  day: string;
  /** Production requests of the day (the account's quota counts these). */
  production: number;
  v1: number;
  v2: number;
  websocket: number;
  sandbox: number;
}

/** The `count` UTC days ending on `now`'s day, oldest first. */
export function utcDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

function parseDays(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_DAYS)
    throw new InvalidArgumentError(`expected a number of days from 1 to ${MAX_DAYS}`);
  return Number(value);
}

function generationOf(entry: KeyUsageEntry): 'v1' | 'v2' | 'websocket' {
  return entry.generation === 'v2' ? 'v2' : entry.generation === 'ws' ? 'websocket' : 'v1';
}

export function usageCommand(): Command {
  const command = new Command('usage')
    .description("an account's requests per UTC day, as written to the store")
    .requiredOption('--account <id>', 'account id')
    .option('--days <n>', `days ending today (1-${MAX_DAYS})`, parseDays, 30)
    .exitOverride()
    .showHelpAfterError();
  return reportingAction(command, async (opts: { account: string; days: number }) => {
    const days = utcDays(new Date(), opts.days);
    const from = days[0]!;
    const to = days[days.length - 1]!;
    const store = await openAdminStore(loadConfig());
    let rows: UsageDayRow[];
    try {
      if (!(await store.getAccount(opts.account))) throw new Error(`No account ${opts.account}`);
      const [production, sandbox, entries] = await Promise.all([
        store.keyUsage.listDaily(opts.account, 'production', from, to),
        store.keyUsage.listDaily(opts.account, 'sandbox', from, to),
        store.keyUsage.listByCredential(opts.account, 'production', from, to),
      ]);
      const byDay = new Map(
        days.map((day): [string, UsageDayRow] => [day, { day, production: 0, v1: 0, v2: 0, websocket: 0, sandbox: 0 }]),
      );
      for (const t of production) {
        const row = byDay.get(t.day);
        if (row) row.production = t.count;
      }
      for (const t of sandbox) {
        const row = byDay.get(t.day);
        if (row) row.sandbox = t.count;
      }
      for (const e of entries) {
        const row = byDay.get(e.day);
        if (row) row[generationOf(e)] += e.count;
      }
      rows = [...byDay.values()];
    } finally {
      await store.close();
    }
    const total = (field: keyof Omit<UsageDayRow, 'day'>): string => String(rows.reduce((sum, r) => sum + r[field], 0));
    return {
      data: { accountId: opts.account, from, to, days: rows },
      text: () =>
        table(
          ['DAY', 'PRODUCTION', 'V1', 'V2', 'WEBSOCKET', 'SANDBOX'],
          [
            ...rows.map((r) => [r.day, String(r.production), String(r.v1), String(r.v2), String(r.websocket), String(r.sandbox)]),
            ['total', total('production'), total('v1'), total('v2'), total('websocket'), total('sandbox')],
          ],
        ),
    };
  });
}
