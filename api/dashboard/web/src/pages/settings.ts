/** Settings: password, sessions ("sign out everywhere"), members, and the account's security settings. */
import type { SessionView } from '../../../../management/schemas/auth.js';
import { call } from '../api.js';
import { confirmDialog } from '../components/dialog.js';
import { busy, errorLine, field } from '../components/forms.js';
import { badge, table } from '../components/table.js';
import { formatDateTime, h, relativeTime, replaceChildren } from '../dom.js';
import { pageHeader, section } from '../layout.js';
import { BASE, go } from '../router.js';
import { currentSession, setSession } from '../state.js';
import { accountSecuritySections } from './account-security.js';
import { membersSection } from './members.js';

export async function renderSettings(main: HTMLElement): Promise<void> {
  const [sessions, members, security] = await Promise.all([
    sessionsSection(main),
    membersSection(() => void renderSettings(main)),
    accountSecuritySections(() => void renderSettings(main)),
  ]);
  replaceChildren(main, pageHeader('Settings'), passwordSection(), sessions, members, ...security);
}

function passwordSection(): HTMLElement {
  const email = currentSession()?.user.email ?? '';
  const current = field({ label: 'Current password', name: 'current', type: 'password', autocomplete: 'current-password', required: true });
  const next = field({
    label: 'New password',
    name: 'new',
    type: 'password',
    autocomplete: 'new-password',
    required: true,
    hint: 'At least 12 characters. Your other sessions will be signed out.',
  });
  const error = errorLine();
  const done = h('p', { class: 'success', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Change password');
  const form = h(
    'form',
    {
      class: 'stack',
      on: {
        submit: (e) => {
          e.preventDefault();
          error.clear();
          done.textContent = '';
          void busy(submit, async () => {
            try {
              setSession(await call('changePassword', { body: { currentPassword: current.input.value, newPassword: next.input.value } }));
              current.input.value = '';
              next.input.value = '';
              done.textContent = 'Password changed. Your other sessions were signed out.';
            } catch (err) {
              error.show(err);
            }
          });
        },
      },
    },
    // For password managers: which account this password belongs to.
    h('input', { type: 'email', name: 'username', autocomplete: 'username', value: email, hidden: true, readonly: true }),
    current.wrapper,
    next.wrapper,
    error.el,
    done,
    h('div', { class: 'actions' }, submit),
  );
  return section('Password', form);
}

async function sessionsSection(main: HTMLElement): Promise<HTMLElement> {
  const { sessions } = await call('listSessions', {});
  const refresh = () => void renderSettings(main);
  const everywhere = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      on: {
        click: () =>
          void (async () => {
            const yes = await confirmDialog({
              title: 'Sign out everywhere?',
              body: 'Every session of yours ends, this one included. You will sign in again.',
              confirm: 'Sign out everywhere',
              danger: true,
            });
            if (!yes) return;
            await call('endAllSessions', { body: { keepCurrent: false } });
            setSession(undefined);
            go(`${BASE}/sign-in`);
          })(),
      },
    },
    'Sign out everywhere',
  );
  return section(
    'Sessions',
    h(
      'p',
      { class: 'intro' },
      'Where you are signed in. A session ends after 12 hours without use, and 7 days after sign-in at the latest.',
    ),
    table<SessionView>(
      'Your sessions',
      [
        { label: 'Browser', cell: (s) => h('span', { class: 'wrap' }, s.userAgent || 'unknown') },
        { label: 'Address', cell: (s) => s.address || '—' },
        { label: 'Signed in', cell: (s) => formatDateTime(s.createdAt) },
        { label: 'Last active', cell: (s) => (s.current ? badge('this session', 'ok') : relativeTime(s.lastSeenAt)) },
        {
          label: 'Actions',
          className: 'actions-cell',
          cell: (s) =>
            s.current
              ? '—'
              : h(
                  'button',
                  {
                    type: 'button',
                    class: 'small',
                    'aria-label': `Sign out session from ${s.address || 'unknown address'}`,
                    on: { click: () => void call('endSession', { params: { sessionId: s.id } }).then(refresh) },
                  },
                  'Sign out',
                ),
        },
      ],
      sessions,
      'No sessions.',
    ),
    h('div', { class: 'actions' }, everywhere),
  );
}
