/** Usage: requests per day as a chart (by generation or by key), a table beside it, and the CSV. */
import type { UsageResponse } from '../../../../management/schemas/usage.js';
import { call, urlOf } from '../api.js';
import { legend, stackedBars, type Series } from '../components/chart.js';
import { table } from '../components/table.js';
import { formatNumber, h, replaceChildren, uid } from '../dom.js';
import { pageHeader, section } from '../layout.js';
import { currentMembership } from '../state.js';

const TOP_CREDENTIALS = 5;

export function generationSeries(u: UsageResponse): Series[] {
  const other = u.days.map((d) => Math.max(0, d.total - d.byGeneration.v1 - d.byGeneration.v2 - d.byGeneration.websocket));
  const series: Series[] = [
    { name: 'v1', values: u.days.map((d) => d.byGeneration.v1) },
    { name: 'v2', values: u.days.map((d) => d.byGeneration.v2) },
    { name: 'WebSocket', values: u.days.map((d) => d.byGeneration.websocket) },
  ];
  if (other.some((v) => v > 0)) series.push({ name: 'Not attributed', values: other });
  return series;
}

export function credentialSeries(u: UsageResponse): Series[] {
  const top = u.credentials.slice(0, TOP_CREDENTIALS);
  const series: Series[] = top.map((c) => ({ name: c.label, values: c.perDay }));
  const rest = u.days.map((d, i) => d.total - top.reduce((sum, c) => sum + (c.perDay[i] ?? 0), 0));
  if (rest.some((v) => v > 0))
    series.push({
      name: u.credentials.length > TOP_CREDENTIALS ? 'Other keys and unattributed' : 'Not attributed',
      values: rest.map((v) => Math.max(0, v)),
    });
  return series;
}

export async function renderUsage(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  const days = Number(new URLSearchParams(location.search).get('days') ?? '30');
  const usage = await call('usage', { params: { accountId }, query: { days: [7, 30, 90].includes(days) ? days : 30 } });
  const chartBox = h('div', { class: 'chart-box' });
  const view = { mode: 'generation' as 'generation' | 'key' };
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
      h('input', { type: 'radio', id, name, value, checked: view.mode === value, on: { change: () => ((view.mode = value), draw()) } }),
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
          const url = new URL(location.href);
          url.searchParams.set('days', (e.target as HTMLSelectElement).value);
          history.replaceState(null, '', url);
          void renderUsage(main);
        },
      },
    },
    ...[7, 30, 90].map((n) => h('option', { value: n, selected: n === usage.days.length }, `Last ${n} days`)),
  );
  const total = usage.days.reduce((s, d) => s + d.total, 0);
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
      ),
    ),
  );
}
