/** OAuth applications: register (the secret is shown once), edit redirect URIs, rotate the secret, delete. */
import type { OAuthAppView } from '../../../../management/schemas/oauth.js';
import { call } from '../api.js';
import { confirmDialog, formDialog, noticeDialog } from '../components/dialog.js';
import { field } from '../components/forms.js';
import { secretBox } from '../components/secret.js';
import { badge, table } from '../components/table.js';
import { formatDate, h, lines, replaceChildren, uid } from '../dom.js';
import { pageHeader } from '../layout.js';
import { currentMembership, roleAtLeast } from '../state.js';

export async function renderOAuthApps(main: HTMLElement): Promise<void> {
  const membership = currentMembership()!;
  const accountId = membership.accountId;
  const { apps } = await call('listOAuthApps', { params: { accountId } });
  const refresh = () => void renderOAuthApps(main);
  const enterprise = membership.plan === 'enterprise';
  const manage = enterprise && roleAtLeast('admin');
  const header = pageHeader(
    'OAuth applications',
    'Applications that ask people of this account for access through the authorization code flow with PKCE.',
    ...(manage
      ? [h('button', { type: 'button', class: 'primary', on: { click: () => registerDialog(accountId, refresh) } }, 'Register application')]
      : []),
  );
  const body = !enterprise
    ? h('p', { class: 'notice' }, 'OAuth applications are available on the Enterprise plan.')
    : table<OAuthAppView>(
        'OAuth applications',
        [
          { label: 'Name', cell: (a) => a.name },
          { label: 'Client ID', cell: (a) => h('span', { class: 'mono wrap' }, a.clientId) },
          { label: 'Type', cell: (a) => badge(a.public ? 'public (PKCE)' : 'confidential', 'muted') },
          {
            label: 'Redirect URIs',
            cell: (a) => h('ul', { class: 'plain' }, ...a.redirectUris.map((u) => h('li', { class: 'mono wrap' }, u))),
          },
          { label: 'Registered', cell: (a) => formatDate(a.createdAt) },
          {
            label: 'Actions',
            className: 'actions-cell',
            cell: (a) =>
              manage
                ? h(
                    'div',
                    { class: 'row-actions' },
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'small',
                        'aria-label': `Edit ${a.name}`,
                        on: { click: () => editDialog(accountId, a, refresh) },
                      },
                      'Edit',
                    ),
                    a.public
                      ? null
                      : h(
                          'button',
                          {
                            type: 'button',
                            class: 'small',
                            'aria-label': `Rotate secret of ${a.name}`,
                            on: { click: () => void rotate(accountId, a) },
                          },
                          'Rotate secret',
                        ),
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'small danger',
                        'aria-label': `Delete ${a.name}`,
                        on: { click: () => void remove(accountId, a, refresh) },
                      },
                      'Delete',
                    ),
                  )
                : '—',
          },
        ],
        apps,
        'No applications registered.',
      );
  replaceChildren(main, header, body);
}

function registerDialog(accountId: string, done: () => void): void {
  formDialog('Register an OAuth application', ({ showOutcome }) => {
    const name = field({ label: 'Name', name: 'name', required: true, hint: 'People see it on the consent page.' });
    const uris = field({
      label: 'Redirect URIs',
      name: 'redirect',
      multiline: true,
      required: true,
      hint: 'One per line; https, or http on 127.0.0.1, [::1] or localhost. Matched exactly.',
    });
    const publicId = uid('public');
    const isPublic = h('input', { type: 'checkbox', id: publicId, name: 'public' });
    return {
      fields: [
        name.wrapper,
        uris.wrapper,
        h(
          'div',
          { class: 'check' },
          isPublic,
          h('label', { for: publicId }, 'Public application (native or browser app that cannot keep a secret)'),
        ),
      ],
      submitLabel: 'Register',
      submit: async () => {
        const reg = await call('registerOAuthApp', {
          params: { accountId },
          body: { name: name.input.value, redirectUris: lines(uris.input.value), public: isPublic.checked },
        });
        showOutcome(
          done,
          h('p', {}, `"${reg.app.name}" is registered.`),
          secretBox('Client ID', reg.app.clientId, 'The client ID is public; it is also in the list.'),
          reg.clientSecret
            ? secretBox('Client secret', reg.clientSecret)
            : h('p', {}, 'A public application has no secret: it proves itself with PKCE.'),
        );
      },
    };
  });
}

function editDialog(accountId: string, app: OAuthAppView, done: () => void): void {
  formDialog(`Edit ${app.name}`, ({ close }) => {
    const name = field({ label: 'Name', name: 'name', value: app.name, required: true });
    const uris = field({
      label: 'Redirect URIs',
      name: 'redirect',
      multiline: true,
      value: app.redirectUris.join('\n'),
      required: true,
      hint: 'One per line.',
    });
    return {
      fields: [name.wrapper, uris.wrapper],
      submitLabel: 'Save',
      submit: async () => {
        await call('updateOAuthApp', {
          params: { accountId, clientId: app.clientId },
          body: { name: name.input.value, redirectUris: lines(uris.input.value) },
        });
        close();
        done();
      },
    };
  });
}

async function rotate(accountId: string, app: OAuthAppView): Promise<void> {
  const yes = await confirmDialog({
    title: `New secret for ${app.name}?`,
    body: 'The current secret stops working at once; issued tokens keep working until they expire.',
    confirm: 'Rotate secret',
  });
  if (!yes) return;
  const { clientSecret } = await call('rotateOAuthSecret', { params: { accountId, clientId: app.clientId } });
  noticeDialog(`New secret for ${app.name}`, 'Done', secretBox('Client secret', clientSecret));
}

async function remove(accountId: string, app: OAuthAppView, done: () => void): Promise<void> {
  const yes = await confirmDialog({
    title: `Delete ${app.name}?`,
    body: 'Its tokens and every authorization given to it end at once.',
    confirm: 'Delete application',
    danger: true,
  });
  if (!yes) return;
  await call('deleteOAuthApp', { params: { accountId, clientId: app.clientId } });
  done();
}
