/** Authorized applications: who let which application do what, and when; revoke ends its tokens at once. */
import type { GrantView } from '../../../../management/schemas/oauth.js';
import { scopeInWords } from '../../../../management/scopes.js';
import { call } from '../api.js';
import { confirmDialog } from '../components/dialog.js';
import { table } from '../components/table.js';
import { formatDateTime, h, relativeTime, replaceChildren } from '../dom.js';
import { pageHeader } from '../layout.js';
import { currentMembership, currentSession, roleAtLeast } from '../state.js';

export async function renderGrants(main: HTMLElement): Promise<void> {
  const accountId = currentMembership()!.accountId;
  const me = currentSession()!.user.id;
  const { grants } = await call('listGrants', { params: { accountId } });
  const refresh = () => void renderGrants(main);
  replaceChildren(
    main,
    pageHeader(
      'Authorized applications',
      'Applications people of this account have let act for it. An authorization also ends when the person who gave it leaves the account or loses the admin role.',
    ),
    table<GrantView>(
      'Authorized applications',
      [
        { label: 'Application', cell: (g) => g.appName },
        { label: 'May', cell: (g) => h('ul', { class: 'plain' }, ...g.scopes.map((s) => h('li', {}, scopeInWords(s)))) },
        { label: 'Authorized by', cell: (g) => g.consentedBy.email },
        { label: 'Since', cell: (g) => formatDateTime(g.createdAt) },
        { label: 'Last used', cell: (g) => relativeTime(g.lastUsedAt) },
        {
          label: 'Actions',
          className: 'actions-cell',
          cell: (g) =>
            g.consentedBy.userId === me || roleAtLeast('admin')
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'small danger',
                    'aria-label': `Revoke ${g.appName}`,
                    on: { click: () => void revoke(accountId, g, refresh) },
                  },
                  'Revoke',
                )
              : '—',
        },
      ],
      grants,
      'No application is authorized.',
    ),
  );
}

async function revoke(accountId: string, grant: GrantView, done: () => void): Promise<void> {
  const yes = await confirmDialog({
    title: `Revoke ${grant.appName}?`,
    body: 'Its access and refresh tokens stop working at once. It would have to ask again.',
    confirm: 'Revoke',
    danger: true,
  });
  if (!yes) return;
  await call('revokeGrant', { params: { accountId, grantId: grant.id } });
  done();
}
