/**
 * Webhooks (docs/webhooks.md): the account's endpoints (URL, description, enabled or disabled and
 * why) and recent deliveries (status, response code, latency); admins and owners create an
 * endpoint (its signing secret shown once), send a test event, re-enable, and replay a delivery,
 * as the management API's policy allows. Viewers and developers see no manage buttons.
 */
import type { ManagementApi } from '../../../../management/contract.js';
import { ApiError, call } from '../api.js';
import { formDialog } from '../components/dialog.js';
import { field } from '../components/forms.js';
import { secretBox } from '../components/secret.js';
import { badge, table } from '../components/table.js';
import { formatDateTime, h, replaceChildren } from '../dom.js';
import { pageHeader } from '../layout.js';
import { currentMembership, roleAtLeast } from '../state.js';

// The views as the management contract types them (no schema code in the bundle).
type WebhookEndpointView = ManagementApi['listWebhookEndpoints']['response']['endpoints'][number];
type WebhookDeliveryView = ManagementApi['listWebhookDeliveries']['response']['deliveries'][number];

const DELIVERY_KIND: Record<WebhookDeliveryView['status'], string> = { delivered: 'ok', pending: 'warn', failed: 'danger' };

function smallButton(label: string, ariaLabel: string, action: () => Promise<void>, danger = false): HTMLButtonElement {
  const button = h('button', { type: 'button', class: danger ? 'small danger' : 'small', 'aria-label': ariaLabel }, label);
  button.addEventListener('click', () => {
    button.disabled = true;
    // A refusal (a role the server does not allow, an endpoint gone) is said on the button's row, not swallowed.
    action().then(
      () => (button.disabled = false),
      (err: unknown) => {
        button.disabled = false;
        button.after(h('span', { class: 'hint', role: 'alert' }, err instanceof ApiError ? ` ${err.message}` : ' Failed; try again'));
      },
    );
  });
  return button;
}

export async function renderWebhooks(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  // Same gate as the server's `webhooks.manage` (admins and owners); the server still decides.
  const manage = roleAtLeast('admin');
  const [{ endpoints }, { deliveries }] = await Promise.all([
    call('listWebhookEndpoints', { params: { accountId } }),
    call('listWebhookDeliveries', { params: { accountId }, query: { limit: 25 } }),
  ]);
  const refresh = () => void renderWebhooks(main);
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));

  const endpointList = table<WebhookEndpointView>(
    'Webhook endpoints',
    [
      { label: 'URL', className: 'wrap', cell: (e) => h('span', { class: 'mono' }, e.url) },
      { label: 'Description', cell: (e) => e.description || '—' },
      {
        label: 'Status',
        cell: (e) =>
          e.enabled
            ? badge('enabled', 'ok')
            : h('span', {}, badge('disabled', 'danger'), e.disabledReason ? h('span', { class: 'hint' }, ` ${e.disabledReason}`) : null),
      },
      { label: 'Created', cell: (e) => formatDateTime(e.createdAt) },
      ...(manage
        ? [
            {
              label: 'Actions',
              className: 'actions-cell',
              cell: (e: WebhookEndpointView) =>
                h(
                  'div',
                  { class: 'row-actions' },
                  smallButton('Send test', `Send a test event to ${e.url}`, async () => {
                    await call('testWebhookEndpoint', { params: { accountId, endpointId: e.id } });
                    refresh();
                  }),
                  e.enabled
                    ? null
                    : smallButton('Re-enable', `Re-enable ${e.url}`, async () => {
                        await call('updateWebhookEndpoint', { params: { accountId, endpointId: e.id }, body: { enabled: true } });
                        refresh();
                      }),
                ),
            },
          ]
        : []),
    ],
    endpoints,
    'No endpoints yet.',
  );

  const deliveryList = table<WebhookDeliveryView>(
    'Recent deliveries',
    [
      { label: 'Event', cell: (d) => (d.isTest ? `${d.eventType} (test)` : d.eventType) },
      { label: 'Endpoint', className: 'wrap', cell: (d) => h('span', { class: 'mono' }, urlOf.get(d.endpointId) ?? d.endpointId) },
      { label: 'Status', cell: (d) => badge(d.status, DELIVERY_KIND[d.status]) },
      { label: 'Response', cell: (d) => (d.lastStatusCode === null ? (d.lastError ?? '—') : String(d.lastStatusCode)) },
      { label: 'Latency', cell: (d) => (d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`) },
      { label: 'Attempts', cell: (d) => String(d.attempts) },
      { label: 'When', cell: (d) => formatDateTime(d.updatedAt) },
      ...(manage
        ? [
            {
              label: 'Actions',
              className: 'actions-cell',
              cell: (d: WebhookDeliveryView) =>
                d.status === 'pending'
                  ? '—'
                  : smallButton('Replay', `Replay delivery ${d.id}`, async () => {
                      await call('replayWebhookDelivery', { params: { accountId, deliveryId: d.id } });
                      refresh();
                    }),
            },
          ]
        : []),
    ],
    deliveries,
    'No deliveries yet.',
  );

  const createButton = manage
    ? h('button', { type: 'button', class: 'primary', on: { click: () => createDialog(accountId, refresh) } }, 'Add endpoint')
    : null;
  replaceChildren(
    main,
    pageHeader(
      'Webhooks',
      'Endpoints receive a signed event when an async job finishes. A signing secret is shown once, when the endpoint is made.',
      ...(createButton ? [createButton] : []),
    ),
    endpointList,
    // A heading, not a card: the delivery rows are cards themselves below 640 px, and a card in a card cramps them.
    h(
      'section',
      { class: 'plain-section' },
      h(
        'div',
        { class: 'page-header' },
        h('h2', {}, 'Recent deliveries'),
        h('button', { type: 'button', class: 'secondary small', on: { click: refresh } }, 'Refresh'),
      ),
      deliveryList,
    ),
  );
}

function createDialog(accountId: string, done: () => void): void {
  formDialog('Add a webhook endpoint', ({ error, showOutcome }) => {
    const url = field({
      label: 'URL',
      name: 'url',
      type: 'url',
      required: true,
      hint: 'https://… (plain http only to an address the operator allows).',
    });
    const description = field({ label: 'Description (optional)', name: 'description', hint: 'What receives it, e.g. "Billing service".' });
    return {
      fields: [url.wrapper, description.wrapper],
      submitLabel: 'Add endpoint',
      submit: async () => {
        error.clear();
        const created = await call('createWebhookEndpoint', {
          params: { accountId },
          body: { url: url.input.value, description: description.input.value, eventTypes: [] },
        });
        showOutcome(
          done,
          h('p', {}, `Endpoint ${created.endpoint.url} is ready.`),
          secretBox('Signing secret', created.secret, 'Copy it now: it is shown only once and cannot be shown again.'),
        );
      },
    };
  });
}
