/**
 * The dashboard's entry point: loads who is signed in (GET /me), draws the shell, and renders the
 * page the address names. Without a session, every page but sign-in and set-password sends the
 * person to sign-in, which brings them back afterwards.
 */
import { ApiError, call, setUnauthorizedHandler } from './api.js';
import { h, replaceChildren } from './dom.js';
import { shell } from './layout.js';
import { renderGrants } from './pages/grants.js';
import { renderKeys } from './pages/keys.js';
import { renderNotFound } from './pages/not-found.js';
import { renderOAuthApps } from './pages/oauth-apps.js';
import { renderOverview } from './pages/overview.js';
import { renderSandbox } from './pages/sandbox.js';
import { renderSetPassword } from './pages/set-password.js';
import { renderSettings } from './pages/settings.js';
import { renderSignIn } from './pages/sign-in.js';
import { renderUsage } from './pages/usage.js';
import { renderWebhooks } from './pages/webhooks.js';
import { PAGE_PATHS } from './paths.js';
import { BASE, go, startRouter, type Page } from './router.js';
import { currentMembership, currentSession, setSession } from './state.js';

const PAGES: Page[] = [
  { path: PAGE_PATHS.overview, title: 'Overview', nav: true, render: renderOverview },
  { path: PAGE_PATHS.keys, title: 'API keys', nav: true, render: renderKeys },
  { path: PAGE_PATHS.usage, title: 'Usage', nav: true, render: renderUsage },
  { path: PAGE_PATHS.oauthApps, title: 'OAuth applications', nav: true, render: renderOAuthApps },
  { path: PAGE_PATHS.authorizedApps, title: 'Authorized applications', nav: true, render: renderGrants },
  { path: PAGE_PATHS.webhooks, title: 'Webhooks', nav: true, render: renderWebhooks },
  { path: PAGE_PATHS.sandbox, title: 'Sandbox', nav: true, render: renderSandbox },
  { path: PAGE_PATHS.settings, title: 'Settings', nav: true, render: renderSettings },
  { path: PAGE_PATHS.signIn, title: 'Sign in', public: true, render: renderSignIn },
  { path: PAGE_PATHS.setPassword, title: 'Set password', public: true, render: renderSetPassword },
];
/** Any other path under /dashboard: behind the session like the pages, with the navigation to leave it. */
const NOT_FOUND: Page = { path: '', title: 'Page not found', render: renderNotFound };

/** Once per refusal: a 401 reaches here from the API client and from the page that made the call. */
function toSignIn(): void {
  setSession(undefined);
  if (location.pathname === `${BASE}/sign-in`) return;
  const here = location.pathname + location.search;
  go(`${BASE}/sign-in?returnTo=${encodeURIComponent(here)}`, true);
}

async function show(page: Page): Promise<void> {
  const app = document.getElementById('app')!;
  document.title = `${page.title} — sha224d`;
  if (page.public) {
    const main = h('main', { id: 'main', class: 'main public', tabindex: '-1' });
    replaceChildren(app, main);
    await page.render(main);
    main.querySelector('h1')?.focus();
    return;
  }
  if (!currentSession()) {
    try {
      setSession(await call('me', {}));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return toSignIn();
      throw err;
    }
  }
  if (!currentMembership()) {
    replaceChildren(
      app,
      h(
        'main',
        { id: 'main', class: 'main public' },
        h(
          'div',
          { class: 'card narrow' },
          h('h1', {}, 'No account'),
          h('p', {}, 'You are not a member of any account. Ask an admin to add you.'),
        ),
      ),
    );
    return;
  }
  const frame = shell(PAGES, page);
  replaceChildren(app, frame);
  const main = frame.querySelector('main')!;
  main.append(h('p', { class: 'loading' }, 'Loading…'));
  try {
    await page.render(main);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return;
    replaceChildren(
      main,
      h(
        'div',
        { class: 'card' },
        h('h1', { tabindex: '-1' }, 'This page could not load'),
        h('p', { role: 'alert' }, err instanceof Error ? err.message : 'Unknown error'),
      ),
    );
  }
  main.querySelector('h1')?.focus();
}

setUnauthorizedHandler(toSignIn);
startRouter(PAGES, NOT_FOUND, show);
