/** The sandbox: where it is, how to call it, and its own usage (it never counts against production). */
import { call } from '../api.js';
import { stackedBars } from '../components/chart.js';
import { secretBox } from '../components/secret.js';
import { formatDateTime, formatNumber, h, replaceChildren } from '../dom.js';
import { pageHeader, section } from '../layout.js';
import { currentMembership } from '../state.js';

export async function renderSandbox(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  const s = await call('sandbox', { params: { accountId } });
  replaceChildren(
    main,
    pageHeader('Sandbox', 'The sandbox answers the /v1 API with your own keys and counts apart: nothing there uses your production quota.'),
    section(
      'How to call it',
      s.url
        ? h('p', {}, 'Address: ', h('span', { class: 'mono' }, s.url))
        : h('p', { class: 'notice' }, 'This deployment runs no sandbox (SANDBOX_PORT or SANDBOX_HOST is not set).'),
      secretBox('Example request', s.example, 'Replace $KEY with one of your keys.', { multiline: true }),
    ),
    section(
      'Sandbox requests',
      h(
        'p',
        {},
        `${formatNumber(s.today.used)} today${s.today.quota === null ? '' : ` of ${formatNumber(s.today.quota)}`}; the count starts again at ${formatDateTime(s.today.resetsAt)}.`,
      ),
      h(
        'div',
        { class: 'chart-box' },
        stackedBars(
          'Sandbox requests per day',
          s.days.map((d) => d.day),
          [{ name: 'Sandbox', values: s.days.map((d) => d.count) }],
        ),
      ),
    ),
  );
}
