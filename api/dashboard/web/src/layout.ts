/**
 * The page shell: a header (brand, account switcher, the person, sign out), the navigation (a side
 * column on wide screens, a wrapped row on narrow ones) and the main region the pages fill.
 */
import { call } from './api.js';
import { h } from './dom.js';
import { BASE, go, href, type Page } from './router.js';
import { currentMembership, currentSession, setSession } from './state.js';

export function shell(pages: Page[], active: Page): HTMLElement {
  const session = currentSession();
  const membership = currentMembership();
  const main = h('main', { id: 'main', class: 'main', tabindex: '-1' });
  const header = h(
    'header',
    { class: 'topbar' },
    h('a', { class: 'brand', href: href('/') }, 'sha224d'),
    session && session.memberships.length > 1
      ? accountSwitcher()
      : membership
        ? h('span', { class: 'account-name' }, membership.accountName)
        : null,
    h(
      'div',
      { class: 'who' },
      session ? h('span', { class: 'email' }, session.user.email) : null,
      session
        ? h(
            'button',
            {
              type: 'button',
              class: 'link',
              on: {
                click: () =>
                  void call('signOut', {})
                    .catch(() => undefined)
                    .then(() => {
                      setSession(undefined);
                      go(`${BASE}/sign-in`);
                    }),
              },
            },
            'Sign out',
          )
        : null,
    ),
  );
  const nav = h(
    'nav',
    { class: 'nav', 'aria-label': 'Dashboard' },
    h(
      'ul',
      {},
      ...pages
        .filter((p) => p.nav)
        .map((p) => h('li', {}, h('a', { href: href(p.path), 'aria-current': p === active ? 'page' : undefined }, p.title))),
    ),
  );
  return h('div', { class: 'frame' }, header, h('div', { class: 'layout' }, nav, main));
}

function accountSwitcher(): HTMLElement {
  const session = currentSession()!;
  const current = currentMembership();
  const select = h(
    'select',
    {
      id: 'account-switch',
      on: {
        change: (e) => {
          const url = new URL(location.href);
          url.searchParams.set('account', (e.target as HTMLSelectElement).value);
          go(url.pathname + url.search);
        },
      },
    },
    ...session.memberships.map((m) =>
      h('option', { value: m.accountId, selected: m.accountId === current?.accountId }, `${m.accountName} (${m.plan})`),
    ),
  );
  return h('div', { class: 'account-switch' }, h('label', { for: 'account-switch', class: 'visually-hidden' }, 'Account'), select);
}

/** A page's heading and intro; the heading takes focus after navigation. */
export function pageHeader(title: string, intro?: string, ...actions: Node[]): HTMLElement {
  return h(
    'div',
    { class: 'page-header' },
    h('div', {}, h('h1', { tabindex: '-1' }, title), intro ? h('p', { class: 'intro' }, intro) : null),
    actions.length ? h('div', { class: 'page-actions' }, ...actions) : null,
  );
}

export function section(title: string, ...children: Array<Node | null>): HTMLElement {
  const el = h('section', { class: 'card' }, h('h2', {}, title));
  for (const c of children) if (c) el.append(c);
  return el;
}
