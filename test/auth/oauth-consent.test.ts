/**
 * Browser consent at /oauth/authorize: a signed-in admin or owner sees the consent page (app name,
 * account, redirect host, scopes in words), approves or denies with the CSRF token; a consent with
 * the same or fewer scopes skips the page; the consent is listed and revoked through the management
 * API, and revoking it ends its tokens. Developers and non-members are refused with a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeInWords } from '../../api/management/scopes.js';
import { csrfToken } from '../../api/sessions/csrf.js';
import { OAuthFixture, REDIRECT, type Person } from './oauth-fixture.js';
import { pkcePair } from './oauth-helpers.js';

const f = new OAuthFixture();
beforeAll(() => f.start());
afterAll(() => f.close());

function params(challenge: string, scope = 'hash:create hash:verify'): Record<string, string> {
  return f.authorizeParams({ scope }, challenge);
}

async function get(p: Person | undefined, query: Record<string, string>): Promise<Response> {
  return fetch(`${f.s.url}/oauth/authorize?${new URLSearchParams(query)}`, {
    headers: p ? { cookie: p.cookie } : {},
    redirect: 'manual',
  });
}

async function answer(p: Person, query: Record<string, string>, decision: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${f.s.url}/oauth/authorize`, {
    method: 'POST',
    headers: { cookie: p.cookie, origin: f.s.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...query, csrf_token: p.csrf, decision, ...extra }).toString(),
    redirect: 'manual',
  });
}

/** The hidden fields of the Approve form, as a browser would post them. */
function approveFields(html: string): Record<string, string> {
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  }
  return fields;
}

describe('browser consent', () => {
  let owner: Person;
  beforeAll(async () => {
    owner = await f.person('owner');
  });

  it('shows the consent page with the app, account, redirect host and scopes in words, under a CSP that lets the answer redirect', async () => {
    const res = await get(owner, params(pkcePair().challenge));
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain(`form-action 'self' ${new URL(REDIRECT).origin}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('Authorize <span class="app-name">Test app</span>');
    expect(html).toContain('<strong>test</strong>'); // the account's name
    expect(html).toContain(`<strong class="host">${new URL(REDIRECT).host}</strong>`);
    for (const scope of ['hash:create', 'hash:verify']) expect(html).toContain(scopeInWords(scope).replace(/'/g, '&#39;'));
    expect(html).not.toMatch(/<script/);
  });

  it('approving needs the CSRF token and a same-origin Origin', async () => {
    const query = params(pkcePair().challenge);
    const wrongToken = await answer({ ...owner, csrf: 'x'.repeat(43) }, query, 'approve');
    expect(wrongToken.status).toBe(403);
    const foreign = await fetch(`${f.s.url}/oauth/authorize`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...query, csrf_token: owner.csrf, decision: 'approve' }).toString(),
      redirect: 'manual',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('location')).toBeNull();
  });

  it('approve → code → token works; the same scopes again skip the page; more scopes ask again', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await (await get(owner, params(challenge, 'hash:create'))).text();
    const approved = await answer(owner, approveFields(page), 'approve');
    expect(approved.status).toBe(302);
    const to = new URL(approved.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get('state')).toBe('st-123');
    expect(to.searchParams.get('iss')).toBe(f.s.url);
    const code = to.searchParams.get('code')!;
    f.issued.push(code);
    const token = await f.exchange(code, verifier);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('hash:create');
    expect((await f.hash(token.body.access_token)).status).toBe(200);

    const again = await get(owner, params(pkcePair().challenge, 'hash:create'));
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toMatch(/.+/);
    const wider = await get(owner, params(pkcePair().challenge, 'hash:create usage:read'));
    expect(wider.status).toBe(200);
    expect(await wider.text()).toContain(scopeInWords('usage:read').replace(/'/g, '&#39;'));
  });

  it('deny redirects access_denied and records nothing', async () => {
    const before = await f.s.store.oauthGrants.list(f.s.accountId);
    const denied = await answer(owner, params(pkcePair().challenge, 'jobs:read'), 'deny');
    expect(denied.status).toBe(302);
    const to = new URL(denied.headers.get('location')!);
    expect(to.searchParams.get('error')).toBe('access_denied');
    expect(to.searchParams.get('code')).toBeNull();
    expect(await f.s.store.oauthGrants.list(f.s.accountId)).toEqual(before);
  });

  it('lists the consent in the management API; revoking it there ends its tokens', async () => {
    const { verifier, challenge } = pkcePair();
    const admin = await f.person('admin');
    const approved = await answer(admin, params(challenge, 'hash:verify'), 'approve');
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    f.issued.push(code);
    const token = await f.exchange(code, verifier);
    expect((await f.verify(token.body.access_token)).status).toBe(200);

    const listed = await fetch(`${f.s.url}/dashboard/api/accounts/${f.s.accountId}/grants`, { headers: { cookie: admin.cookie } });
    const grants = (
      (await listed.json()) as { grants: Array<{ id: string; appName: string; scopes: string[]; consentedBy: { email: string } }> }
    ).grants;
    const mine = grants.find((g) => g.consentedBy.email.startsWith('admin.'))!;
    expect(mine).toMatchObject({ appName: 'Test app', scopes: ['hash:verify'] });

    const revoked = await fetch(`${f.s.url}/dashboard/api/accounts/${f.s.accountId}/grants/${mine.id}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie, origin: f.s.url, 'x-csrf-token': admin.csrf },
    });
    expect(revoked.status).toBe(200);
    expect((await f.verify(token.body.access_token)).status).toBe(401);
    expect((await f.refresh(token.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('refuses a developer and a person of another account with a page, never a code', async () => {
    const developer = await f.person('developer');
    const other = await f.s.store.createAccount({ name: 'other', plan: 'enterprise' });
    const stranger = await f.person('owner', other.id);
    for (const p of [developer, stranger]) {
      const res = await get(p, params(pkcePair().challenge));
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('Only an admin or owner of the account that registered Test app can authorize it');
      const posted = await answer(p, params(pkcePair().challenge), 'approve');
      expect(posted.status).toBe(403);
    }
  });

  it('an ended session posting an answer is sent to sign in again', async () => {
    const p = await f.person('owner');
    const ended = await fetch(`${f.s.url}/dashboard/api/session`, {
      method: 'DELETE',
      headers: { cookie: p.cookie, origin: f.s.url, 'x-csrf-token': p.csrf },
    });
    expect(ended.status).toBe(200);
    const res = await answer(p, params(pkcePair().challenge), 'approve');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/dashboard\/sign-in\?returnTo=%2Foauth%2Fauthorize%3F/);
  });

  it('the CSRF token of the form is the session one (HMAC of the cookie)', async () => {
    const page = await (await get(owner, params(pkcePair().challenge, 'jobs:read'))).text();
    const token = owner.cookie.split('=')[1]!;
    const me = (await (await fetch(`${f.s.url}/dashboard/api/me`, { headers: { cookie: owner.cookie } })).json()) as {
      session: { id: string };
    };
    expect(approveFields(page).csrf_token).toBe(csrfToken(token, me.session.id));
  });

  it('stores and logs no API key, password, session token or OAuth secret in clear (every row of every table)', async () => {
    // Five people signed in above (owner, admin, developer, stranger, the ended session).
    expect(f.people).toHaveLength(5);
    await f.expectNoSecretsInClear(7);
  });
});
