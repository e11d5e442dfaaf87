/**
 * Overview: plan, today's requests against the quota, rate limits (a development key's beside each,
 * as the server computes them from the plan table), service status.
 */
import { call } from '../api.js';
import { badge } from '../components/table.js';
import { formatBytes, formatDateTime, formatNumber, h, replaceChildren } from '../dom.js';
import { pageHeader, section } from '../layout.js';
import { href } from '../router.js';
import { currentMembership } from '../state.js';

export async function renderOverview(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  const o = await call('accountOverview', { params: { accountId } });
  const used = o.today.used;
  const quota = o.today.quota;
  const meter =
    quota === null
      ? h('p', {}, `${formatNumber(used)} requests today; no daily quota on this plan.`)
      : h(
          'div',
          { class: 'quota' },
          h('label', { for: 'quota-meter' }, `${formatNumber(used)} of ${formatNumber(quota)} requests today`),
          h(
            'meter',
            { id: 'quota-meter', min: 0, max: quota, value: used, low: quota * 0.8, high: quota * 0.95, optimum: 0 },
            `${used} of ${quota}`,
          ),
          h(
            'p',
            { class: 'hint' },
            `${formatNumber(o.today.remaining)} left; the count starts again at ${formatDateTime(o.today.resetsAt)}.`,
          ),
        );
  const limit = (n: number | null, unit: string) => (n === null ? 'no limit' : `${formatNumber(n)} ${unit}`);
  const dev = o.developmentLimits;
  const rate = (production: number | null, development: number, unit: string) =>
    h('dd', {}, limit(production, unit), h('span', { class: 'dev-rate' }, `Development keys: ${limit(development, unit)}`));
  replaceChildren(
    main,
    pageHeader(o.account.name, `Account ${o.account.id} · your role: ${o.role}`),
    h(
      'div',
      { class: 'grid' },
      section(
        'Plan',
        h('p', { class: 'big' }, o.account.plan.charAt(0).toUpperCase() + o.account.plan.slice(1)),
        h(
          'ul',
          { class: 'features' },
          h('li', {}, o.features.ipAllowList ? 'IP allow-lists: available' : 'IP allow-lists: on Pro and Enterprise'),
          h('li', {}, o.features.oauth ? 'OAuth applications and JWTs: available' : 'OAuth applications and JWTs: on Enterprise'),
        ),
      ),
      section('Today', meter, h('p', {}, h('a', { href: href('/usage') }, 'See 30 days of usage'))),
      section(
        'Service status',
        h('p', {}, badge(o.status === 'operational' ? 'Operational' : 'Degraded', o.status === 'operational' ? 'ok' : 'warn')),
        h(
          'p',
          { class: 'hint' },
          o.status === 'operational' ? 'Every dependency answers.' : 'A dependency is slow or down; requests may fail or wait.',
        ),
      ),
    ),
    section(
      'Rate limits',
      h(
        'dl',
        { class: 'pairs' },
        h('dt', {}, 'v1 (Set A)'),
        rate(o.limits.v1PerSecond, dev.v1PerSecond, 'requests per second'),
        h('dt', {}, 'v1 (Set B)'),
        rate(o.limits.v1PerMinute, dev.v1PerMinute, 'requests per minute'),
        h('dt', {}, 'v2 and WebSocket'),
        rate(o.limits.v2PerSecond, dev.v2PerSecond, 'requests per second'),
        h('dt', {}, 'Largest file'),
        h('dd', {}, `${formatBytes(o.limits.v1MaxFileBytes)} on v1, ${formatBytes(o.limits.v2MaxFileBytes)} on v2`),
        h('dt', {}, 'WebSocket connections'),
        h('dd', {}, o.limits.wsConnections === null ? 'no limit' : formatNumber(o.limits.wsConnections)),
      ),
      h('p', { class: 'hint' }, 'All keys of the account share the daily quota.'),
    ),
    o.account.allowedIps.length > 0
      ? section('Account IP allow-list', h('p', {}, `Requests are accepted only from: ${o.account.allowedIps.join(', ')}`))
      : null,
  );
}
