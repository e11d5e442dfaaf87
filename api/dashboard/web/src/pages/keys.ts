/**
 * API keys: the list (prefix, type, description, domains, IPs, created, last used, expires, status)
 * and the actions — create (the secret is shown once, with a copy button), edit, roll, revoke
 * (behind a confirmation, docs/api.md "Key states").
 */
import type { ApiKeyView } from '../../../../management/schemas/keys.js';
import { call } from '../api.js';
import { confirmDialog } from '../components/dialog.js';
import { badge, table } from '../components/table.js';
import { formatDate, h, relativeTime, replaceChildren } from '../dom.js';
import { pageHeader } from '../layout.js';
import { currentMembership } from '../state.js';
import { createDialog, creatableTypes, editDialog, rollDialog, TYPE_NAMES } from './key-dialogs.js';

const STATUS_KIND: Record<ApiKeyView['status'], string> = { active: 'ok', rolling: 'warn', expired: 'muted', revoked: 'danger' };

function canManage(key: ApiKeyView): boolean {
  return key.status !== 'revoked' && creatableTypes().includes(key.type);
}

export async function renderKeys(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  const { keys } = await call('listKeys', { params: { accountId } });
  const refresh = () => void renderKeys(main);
  const createButton = creatableTypes().length
    ? h('button', { type: 'button', class: 'primary', on: { click: () => createDialog(accountId, refresh) } }, 'Create key')
    : null;
  const list = table<ApiKeyView>(
    'API keys',
    [
      { label: 'Key', cell: (k) => h('span', { class: 'mono' }, `${k.prefix}…`) },
      { label: 'Type', cell: (k) => TYPE_NAMES[k.type] },
      { label: 'Description', cell: (k) => k.description },
      { label: 'Domains', cell: (k) => (k.allowedDomains.length ? k.allowedDomains.join(', ') : '—') },
      { label: 'IPs', cell: (k) => (k.allowedIps.length ? k.allowedIps.join(', ') : 'any') },
      { label: 'Created', cell: (k) => formatDate(k.createdAt) },
      { label: 'Last used', cell: (k) => relativeTime(k.lastUsedAt) },
      { label: 'Expires', cell: (k) => formatDate(k.expiresAt, 'never') },
      { label: 'Status', cell: (k) => badge(k.status === 'rolling' ? 'rolling (old)' : k.status, STATUS_KIND[k.status]) },
      {
        label: 'Actions',
        className: 'actions-cell',
        cell: (k) =>
          canManage(k)
            ? h(
                'div',
                { class: 'row-actions' },
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'small',
                    'aria-label': `Edit key ${k.prefix}`,
                    on: { click: () => editDialog(accountId, k, refresh) },
                  },
                  'Edit',
                ),
                k.status === 'active'
                  ? h(
                      'button',
                      {
                        type: 'button',
                        class: 'small',
                        'aria-label': `Roll key ${k.prefix}`,
                        on: { click: () => rollDialog(accountId, k, refresh) },
                      },
                      'Roll',
                    )
                  : null,
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'small danger',
                    'aria-label': `Revoke key ${k.prefix}`,
                    on: { click: () => void revoke(accountId, k, refresh) },
                  },
                  'Revoke',
                ),
              )
            : '—',
      },
    ],
    keys,
    'No keys yet.',
  );
  replaceChildren(
    main,
    pageHeader(
      'API keys',
      'Keys authenticate requests to the API. A key is shown once, when it is made.',
      ...(createButton ? [createButton] : []),
    ),
    list,
  );
}

async function revoke(accountId: string, key: ApiKeyView, done: () => void): Promise<void> {
  const yes = await confirmDialog({
    title: `Revoke key ${key.prefix}…?`,
    body: `"${key.description}" stops working at once, everywhere. A revoked key cannot be restored; you would create a new one.`,
    confirm: 'Revoke key',
    danger: true,
  });
  if (!yes) return;
  await call('revokeKey', { params: { accountId, keyId: key.id } });
  done();
}
