/** Members of the account: who, which role; admins invite, change roles, remove and hand out reset links. */
import type { MemberView } from '../../../../management/schemas/members.js';
import { call } from '../api.js';
import { confirmDialog, formDialog, noticeDialog } from '../components/dialog.js';
import { field, select } from '../components/forms.js';
import { secretBox } from '../components/secret.js';
import { badge, table } from '../components/table.js';
import { formatDate, h } from '../dom.js';
import { section } from '../layout.js';
import { currentMembership, roleAtLeast } from '../state.js';

const ROLE_OPTIONS: Array<[MemberView['role'], string]> = [
  ['viewer', 'Viewer — sees everything, changes nothing'],
  ['developer', 'Developer — also manages development and client keys'],
  ['admin', 'Admin — manages everything but owners'],
  ['owner', 'Owner — everything'],
];

export async function membersSection(refresh: () => void): Promise<HTMLElement> {
  const accountId = currentMembership()!.accountId;
  const { members } = await call('listMembers', { params: { accountId } });
  const admin = roleAtLeast('admin');
  const owner = roleAtLeast('owner');
  const roles = ROLE_OPTIONS.filter(([r]) => owner || r !== 'owner');
  const roleCell = (m: MemberView) => {
    if (!admin || m.you || (m.role === 'owner' && !owner)) return m.role;
    const s = select(
      `Role of ${m.email}`,
      'role',
      roles.map(([r]) => [r, r]),
      m.role,
    );
    s.wrapper.classList.add('compact');
    s.wrapper.querySelector('label')?.classList.add('visually-hidden');
    s.input.addEventListener(
      'change',
      () =>
        void call('updateMember', { params: { accountId, userId: m.userId }, body: { role: s.input.value as MemberView['role'] } }).then(
          refresh,
          refresh,
        ),
    );
    return s.wrapper;
  };
  return section(
    'Members',
    table<MemberView>(
      'Members',
      [
        {
          label: 'Person',
          cell: (m) => h('span', {}, m.email, m.you ? ' (you)' : '', m.hasPassword ? null : h('span', {}, ' ', badge('invited', 'warn'))),
        },
        { label: 'Role', cell: roleCell },
        { label: 'Since', cell: (m) => formatDate(m.since) },
        {
          label: 'Actions',
          className: 'actions-cell',
          cell: (m) =>
            h(
              'div',
              { class: 'row-actions' },
              admin && !m.you && (m.role !== 'owner' || owner)
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: 'small',
                      'aria-label': `Reset link for ${m.email}`,
                      on: { click: () => void resetLink(accountId, m) },
                    },
                    'Reset link',
                  )
                : null,
              (admin && (m.role !== 'owner' || owner)) || m.you
                ? h(
                    'button',
                    {
                      type: 'button',
                      class: 'small danger',
                      'aria-label': `${m.you ? 'Leave the account' : `Remove ${m.email}`}`,
                      on: { click: () => void remove(accountId, m, refresh) },
                    },
                    m.you ? 'Leave' : 'Remove',
                  )
                : null,
            ),
        },
      ],
      members,
      'No members.',
    ),
    admin
      ? h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'primary', on: { click: () => inviteDialog(accountId, roles, refresh) } }, 'Add member'),
        )
      : null,
  );
}

function inviteDialog(accountId: string, roles: Array<[MemberView['role'], string]>, done: () => void): void {
  formDialog('Add a member', ({ showOutcome }) => {
    const email = field({ label: 'Email', name: 'email', type: 'email', required: true, autocomplete: 'off' });
    const role = select('Role', 'role', roles, 'developer');
    return {
      fields: [email.wrapper, role.wrapper],
      submitLabel: 'Add member',
      submit: async () => {
        const added = await call('inviteMember', {
          params: { accountId },
          body: { email: email.input.value, role: role.input.value as MemberView['role'] },
        });
        showOutcome(
          done,
          h('p', {}, `${added.member.email} is now a ${added.member.role}.`),
          added.setupLink
            ? secretBox(
                'Their setup link (valid 24 hours, once)',
                added.setupLink.url,
                'Send it to them yourself; nothing is emailed. It is shown only now.',
              )
            : h('p', {}, 'They sign in with the password they already have.'),
        );
      },
    };
  });
}

async function resetLink(accountId: string, m: MemberView): Promise<void> {
  const yes = await confirmDialog({
    title: `Reset link for ${m.email}?`,
    body: 'A one-time link (24 hours) lets them choose a new password; their sessions end when they use it.',
    confirm: 'Create link',
  });
  if (!yes) return;
  try {
    const link = await call('memberResetLink', { params: { accountId, userId: m.userId } });
    noticeDialog(
      'Reset link',
      'Done',
      secretBox('One-time link', link.url, 'Hand it to them yourself; it is shown only now.', { multiline: true }),
    );
  } catch (err) {
    noticeDialog('No link', 'OK', h('p', {}, err instanceof Error ? err.message : 'Refused'));
  }
}

async function remove(accountId: string, m: MemberView, done: () => void): Promise<void> {
  const yes = await confirmDialog({
    title: m.you ? 'Leave this account?' : `Remove ${m.email}?`,
    body: 'Applications this person authorized for the account lose their access too.',
    confirm: m.you ? 'Leave' : 'Remove',
    danger: true,
  });
  if (!yes) return;
  await call('removeMember', { params: { accountId, userId: m.userId } });
  done();
}
