/** The account's IP allow-list (Pro, Enterprise) and its JWT verification keys (Enterprise), for admins. */
import type { JwtKeyView } from '../../../../management/schemas/jwt.js';
import { call } from '../api.js';
import { confirmDialog } from '../components/dialog.js';
import { actionForm, attempt, errorLine, field, select } from '../components/forms.js';
import { table } from '../components/table.js';
import { formatDate, h, lines, relativeTime } from '../dom.js';
import { section } from '../layout.js';
import { currentMembership, roleAtLeast } from '../state.js';

export async function accountSecuritySections(refresh: () => void): Promise<HTMLElement[]> {
  const m = currentMembership()!;
  const out: HTMLElement[] = [];
  const overview = await call('accountOverview', { params: { accountId: m.accountId } });
  out.push(ipSection(m.accountId, overview.account.allowedIps, overview.features.ipAllowList, refresh));
  if (m.plan === 'enterprise') out.push(await jwtSection(m.accountId, refresh));
  return out;
}

function ipSection(accountId: string, current: string[], available: boolean, refresh: () => void): HTMLElement {
  if (!roleAtLeast('admin')) {
    return section(
      'Account IP allow-list',
      h('p', {}, current.length ? `Requests are accepted only from: ${current.join(', ')}` : 'Requests are accepted from any address.'),
    );
  }
  const ips = field({
    label: 'Addresses and ranges',
    name: 'account-ips',
    multiline: true,
    value: current.join('\n'),
    hint: 'One per line, e.g. 203.0.113.7 or 198.51.100.0/24 or 2001:db8::/32. Empty allows any address. Applies to every key, token and WebSocket of the account.',
  });
  const error = errorLine();
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Save allow-list');
  const save = async () => {
    await call('setAccountIpAllowList', { params: { accountId }, body: { allowedIps: lines(ips.input.value) } });
    refresh();
  };
  const form = actionForm({ button: submit, error, action: save }, ips.wrapper, error.el, h('div', { class: 'actions' }, submit));
  return section(
    'Account IP allow-list',
    available ? null : h('p', { class: 'notice' }, 'IP allow-listing is available on the Pro and Enterprise plans.'),
    form,
  );
}

async function jwtSection(accountId: string, refresh: () => void): Promise<HTMLElement> {
  const list = await call('listJwtKeys', { params: { accountId } });
  const admin = roleAtLeast('admin');
  const format = select(
    'Format',
    'format',
    [
      ['pem', 'PEM public key'],
      ['jwk', 'JWK'],
      ['jwks', 'JWKS document'],
    ],
    'pem',
  );
  const kid = field({ label: 'Key id (kid)', name: 'kid', hint: 'Needed for a PEM; a JWK may carry its own.' });
  const material = field({
    label: 'Public key',
    name: 'material',
    multiline: true,
    rows: 6,
    hint: 'ES256 (P-256) or EdDSA (Ed25519). Never paste a private key.',
  });
  const error = errorLine();
  const add = h('button', { type: 'submit', class: 'primary' }, 'Add key');
  const replace = h('button', { type: 'button', class: 'secondary' }, 'Replace all keys with this');
  const body = () => ({
    format: format.input.value as 'pem' | 'jwk' | 'jwks',
    material: material.input.value,
    ...(kid.input.value ? { kid: kid.input.value } : {}),
  });
  const replaceAll = async () => {
    const yes = await confirmDialog({
      title: 'Replace every key?',
      body: 'Tokens signed with the current keys stop working at once.',
      confirm: 'Replace all',
      danger: true,
    });
    if (!yes) return;
    await call('replaceJwtKeys', { params: { accountId }, body: body() });
    refresh();
  };
  replace.addEventListener('click', () => void attempt(replace, error, replaceAll));
  const addKey = async () => {
    await call('addJwtKeys', { params: { accountId }, body: body() });
    refresh();
  };
  const form = actionForm(
    { button: add, error, action: addKey },
    format.wrapper,
    kid.wrapper,
    material.wrapper,
    error.el,
    h('div', { class: 'actions' }, replace, add),
  );
  return section(
    'Token signing keys (JWT)',
    h(
      'p',
      {},
      'Sign tokens with your own private key; the service keeps only the public key. Tokens carry ',
      h('code', {}, `iss: "${list.issuer}"`),
      ', ',
      h('code', {}, `aud: "${list.audience}"`),
      ' and the ',
      h('code', {}, 'kid'),
      ' of one of these keys.',
    ),
    table<JwtKeyView>(
      'JWT keys',
      [
        { label: 'kid', cell: (k) => h('span', { class: 'mono' }, k.kid) },
        { label: 'Algorithm', cell: (k) => k.alg },
        { label: 'Added', cell: (k) => formatDate(k.createdAt) },
        { label: 'Last used', cell: (k) => relativeTime(k.lastUsedAt) },
        {
          label: 'Actions',
          className: 'actions-cell',
          cell: (k) =>
            admin
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'small danger',
                    'aria-label': `Delete key ${k.kid}`,
                    on: {
                      click: () =>
                        void (async () => {
                          if (
                            await confirmDialog({
                              title: `Delete key ${k.kid}?`,
                              body: 'Tokens signed with it stop working at once.',
                              confirm: 'Delete',
                              danger: true,
                            })
                          ) {
                            await call('deleteJwtKey', { params: { accountId, kid: k.kid } });
                            refresh();
                          }
                        })(),
                    },
                  },
                  'Delete',
                )
              : '—',
        },
      ],
      list.keys,
      'No keys yet.',
    ),
    admin ? h('h3', {}, 'Add a public key') : null,
    admin ? form : null,
  );
}
