/**
 * Usage: requests per day as a chart (by generation or by key), a table beside it, and the CSV.
 * The split and the period live in the address (`?split=key&days=7`), so they survive each other's
 * changes, reloads and shared links. A day's requests that name no key are of two kinds: today's
 * not yet written per key and generation (the server's `pending`: counts are written in batches,
 * seconds later), shown as pending; and those that never name one (a deployment-wide JWT).
 */
import type { UsageResponse } from '../../../../management/schemas/usage.js';
import { call, urlOf } from '../api.js';
import { legend, stackedBars, type Series } from '../components/chart.js';
import { table } from '../components/table.js';
import { formatNumber, h, replaceChildren, uid } from '../dom.js';
import { pageHeader, section } from '../layout.js';
import { currentMembership } from '../state.js';

const TOP_CREDENTIALS = 5;
export const PENDING = 'Pending (not yet attributed)';
export const NO_KEY = 'No key (deployment-wide JWT)';
const PERIODS = [7, 30, 90] as const;
type Split = 'generation' | 'key';

/** The page's state from the address: `split` (generation or key) and `days` (7, 30 or 90). */
function viewFromUrl(): { split: Split; days: number } {
  const params = new URLSearchParams(location.search);
  const days = Number(params.get('days') ?? '30');
  return { split: params.get('split') === 'key' ? 'key' : 'generation', days: (PERIODS as readonly number[]).includes(days) ? days : 30 };
}

/** Writes one of them into the address, keeping the rest (the account, the other setting). */
function setInUrl(name: 'split' | 'days', value: string): void {
  const url = new URL(location.href);
  url.searchParams.set(name, value);
  history.replaceState(null, '', url);
}

/** Per day, the requests no key accounts for, split into pending (today's unflushed) and keyless. */
export function unattributed(u: UsageResponse, attributed: number[]): { pending: number[]; noKey: number[] } {
  const last = u.days.length - 1;
  const rest = u.days.map((d, i) => Math.max(0, d.total - (attributed[i] ?? 0)));
  const pending = rest.map((v, i) => (i === last ? Math.min(v, u.pending) : 0));
  return { pending, noKey: rest.map((v, i) => v - pending[i]!) };
}

function withUnattributed(series: Series[], u: UsageResponse, attributed: number[]): Series[] {
  const { pending, noKey } = unattributed(u, attributed);
  if (noKey.some((v) => v > 0)) series.push({ name: NO_KEY, values: noKey });
  if (pending.some((v) => v > 0)) series.push({ name: PENDING, values: pending });
  return series;
}

export function generationSeries(u: UsageResponse): Series[] {
  const series: Series[] = [
    { name: 'v1', values: u.days.map((d) => d.byGeneration.v1) },
    { name: 'v2', values: u.days.map((d) => d.byGeneration.v2) },
    { name: 'WebSocket', values: u.days.map((d) => d.byGeneration.websocket) },
  ];
  return withUnattributed(
    series,
    u,
    u.days.map((d) => d.byGeneration.v1 + d.byGeneration.v2 + d.byGeneration.websocket),
  );
}

/** Every key's requests per day, summed. */
function byAnyKey(u: UsageResponse): number[] {
  return u.days.map((_, i) => u.credentials.reduce((sum, c) => sum + (c.perDay[i] ?? 0), 0));
}

export function credentialSeries(u: UsageResponse): Series[] {
  const top = u.credentials.slice(0, TOP_CREDENTIALS);
  const series: Series[] = top.map((c) => ({ name: c.label, values: c.perDay }));
  const all = byAnyKey(u);
  const others = all.map((v, i) => v - top.reduce((sum, c) => sum + (c.perDay[i] ?? 0), 0));
  if (others.some((v) => v > 0)) series.push({ name: 'Other keys', values: others });
  return withUnattributed(series, u, all);
}

export async function renderUsage(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  const initial = viewFromUrl();
  const usage = await call('usage', { params: { accountId }, query: { days: initial.days } });
  const chartBox = h('div', { class: 'chart-box' });
  const view = { mode: initial.split };
  const draw = () => {
    const series = view.mode === 'generation' ? generationSeries(usage) : credentialSeries(usage);
    replaceChildren(
      chartBox,
      stackedBars(
        `Requests per day by ${view.mode === 'generation' ? 'API generation' : 'key'}`,
        usage.days.map((d) => d.day),
        series,
      ),
      legend(series),
    );
  };
  const name = uid('mode');
  const radio = (value: 'generation' | 'key', label: string) => {
    const id = uid('mode');
    return h(
      'span',
      { class: 'radio' },
      h('input', {
        type: 'radio',
        id,
        name,
        value,
        checked: view.mode === value,
        on: { change: () => ((view.mode = value), setInUrl('split', value), draw()) },
      }),
      h('label', { for: id }, label),
    );
  };
  const rangeId = uid('range');
  const range = h(
    'select',
    {
      id: rangeId,
      on: {
        change: (e) => {
          setInUrl('days', (e.target as HTMLSelectElement).value);
          void renderUsage(main);
        },
      },
    },
    ...PERIODS.map((n) => h('option', { value: n, selected: n === initial.days }, `Last ${n} days`)),
  );
  const total = usage.days.reduce((s, d) => s + d.total, 0);
  const { pending, noKey } = unattributed(usage, byAnyKey(usage));
  const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
  draw();
  replaceChildren(
    main,
    pageHeader(
      'Usage',
      `${formatNumber(total)} requests from ${usage.from} to ${usage.to} (UTC days).`,
      h(
        'a',
        {
          class: 'button',
          href: urlOf('usageCsv', { params: { accountId }, query: { days: usage.days.length } }),
          download: `usage-${usage.from}-${usage.to}.csv`,
        },
        'Download CSV',
      ),
    ),
    section(
      'Requests per day',
      h(
        'div',
        { class: 'toolbar' },
        h('fieldset', { class: 'inline' }, h('legend', {}, 'Split by'), radio('generation', 'Generation'), radio('key', 'Key')),
        h('div', { class: 'field inline' }, h('label', { for: rangeId }, 'Period'), range),
      ),
      chartBox,
    ),
    h(
      'div',
      { class: 'grid two' },
      section(
        'By day',
        table(
          'Requests per day',
          [
            { label: 'Day', cell: (d) => d.day, className: 'date' },
            { label: 'Total', cell: (d) => formatNumber(d.total), className: 'num' },
            { label: 'v1', cell: (d) => formatNumber(d.byGeneration.v1), className: 'num' },
            { label: 'v2', cell: (d) => formatNumber(d.byGeneration.v2), className: 'num' },
            { label: 'WebSocket', cell: (d) => formatNumber(d.byGeneration.websocket), className: 'num' },
          ],
          [...usage.days].reverse(),
          'No requests in this period.',
          { keep: true },
        ),
      ),
      section(
        'By key',
        table(
          'Requests per key',
          [
            { label: 'Key', cell: (c) => c.label },
            { label: 'Kind', cell: (c) => (c.kind === 'api_key' ? 'API key' : c.kind === 'oauth' ? 'OAuth app' : 'JWT') },
            { label: 'Requests', cell: (c) => formatNumber(c.total), className: 'num' },
          ],
          usage.credentials,
          'No requests by any key in this period.',
        ),
        sum(pending) > 0
          ? h(
              'p',
              { class: 'hint pending' },
              `${PENDING}: ${formatNumber(sum(pending))} requests today, counted in the total and written to their key within seconds.`,
            )
          : null,
        sum(noKey) > 0
          ? h(
              'p',
              { class: 'hint no-key' },
              `${NO_KEY}: ${formatNumber(sum(noKey))} requests, counted in the total; no key of the account made them.`,
            )
          : null,
      ),
    ),
  );
}
