/**
 * What /oauth/authorize shows a person in a browser when it must not answer the application: an
 * unknown client or an unregistered (or, among several, missing) redirect URI (RFC 6749 §4.1.2.1:
 * inform the resource owner, never redirect), an Approve or Deny that fails the CSRF check, a
 * malformed request. Each is an HTML page in the consent page's style (its stylesheet, with SRI,
 * under the dashboard's CSP, no script), with the status a script gets for the same request in the
 * OAuth envelope, and plain text with no internal detail. A caller that does not ask for HTML keeps
 * the envelope.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../api/dashboard/serve.js';
import { OAuthFixture, REDIRECT, type Person } from './oauth-fixture.js';
import { authorize, pkcePair } from './oauth-helpers.js';

const f = new OAuthFixture();
let owner: Person;
beforeAll(async () => {
  await f.start();
  owner = await f.person('owner');
});
afterAll(() => f.close());

const UNKNOWN_CLIENT = `s224c_${'A'.repeat(43)}`;
/** What Chromium sends with a navigation or a form post. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

async function open(query: Record<string, string>, p?: Person): Promise<Page> {
  const res = await fetch(`${f.s.url}/oauth/authorize?${new URLSearchParams(query)}`, {
    headers: { accept: BROWSER_ACCEPT, ...(p ? { cookie: p.cookie } : {}) },
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

async function post(p: Person, fields: Record<string, string>, origin = f.s.url): Promise<Page> {
  const res = await fetch(`${f.s.url}/oauth/authorize`, {
    method: 'POST',
    headers: { accept: BROWSER_ACCEPT, cookie: p.cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The status the operator path (X-API-Key, the library's own checks) answers for the same request, in JSON. */
async function scriptStatus(query: Record<string, string>): Promise<{ status: number; error: string }> {
  const r = await authorize(f.s.url, query, { 'x-api-key': f.s.keys.production });
  expect(r.location).toBeUndefined();
  return { status: r.status, error: (r.body as { error: string }).error };
}

const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))
    .replace(/\s+/g, ' ');

/** A refusal page: HTML, no redirect, the dashboard's CSP and headers, the consent page's stylesheet, no script. */
function expectRefusalPage(page: Page, status: number, title: string): string {
  expect(page.status).toBe(status);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('location')).toBeNull();
  expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.html).toMatch(/^<!doctype html>/);
  expect(page.html).toContain(`<title>${title} — sha224d</title>`);
  expect(page.html).toMatch(new RegExp(`<h1>${title}</h1>`));
  expect(page.html).toMatch(/<link rel="stylesheet" href="\/dashboard\/assets\/app\.[0-9a-f]{12}\.css" integrity="sha384-[^"]+" \/>/);
  expect(page.html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
  expect(page.html).not.toMatch(/\{\{/);
  // No OAuth error code, library message, parameter name or stack.
  expect(page.html).not.toMatch(/invalid_client|invalid_request|redirect_uri|client_id|csrf|Error:|\bat \S+ \(/i);
  return text(page.html);
}

describe('refusal pages of the browser consent flow', () => {
  it('an unknown, malformed or missing client_id: "Unknown application", 400 as for a script, signed in or not', async () => {
    const { challenge } = pkcePair();
    const unknown = f.authorizeParams({ client: UNKNOWN_CLIENT }, challenge);
    const malformed = f.authorizeParams({ client: 'not a client id' }, challenge);
    const missing = f.authorizeParams({}, challenge);
    delete missing.client_id;
    expect(await scriptStatus(unknown)).toEqual({ status: 400, error: 'invalid_client' });
    expect(await scriptStatus(malformed)).toEqual({ status: 400, error: 'invalid_client' });
    expect(await scriptStatus(missing)).toEqual({ status: 400, error: 'invalid_request' });
    for (const query of [unknown, malformed, missing]) {
      for (const p of [undefined, owner]) {
        const words = expectRefusalPage(await open(query, p), 400, 'Unknown application');
        expect(words).toContain(
          'The link that brought you here does not name an application registered with this service, so there is nothing to authorize. Nothing was shared with any application.',
        );
        expect(words).toContain('If a website or app sent you here, tell its developer.');
      }
    }
  });

  it('an unregistered redirect_uri: names the application, never the address, never redirects; 400 as for a script', async () => {
    const query = f.authorizeParams({ redirectUri: 'https://evil.example.net/cb' }, pkcePair().challenge);
    expect(await scriptStatus(query)).toEqual({ status: 400, error: 'invalid_client' });
    for (const p of [undefined, owner]) {
      const page = await open(query, p);
      const words = expectRefusalPage(page, 400, 'Return address not registered');
      expect(words).toContain(
        'Test app asked to send you back to an address it has not registered with this service. For your safety you were not sent there.',
      );
      expect(page.html).not.toContain('evil.example.net');
    }
  });

  it('no redirect_uri when the client registered several (RFC 6749 §3.1.2.3): "Return address missing", 400', async () => {
    const query = f.authorizeParams({}, pkcePair().challenge);
    delete query.redirect_uri;
    const words = expectRefusalPage(await open(query, owner), 400, 'Return address missing');
    expect(words).toContain('Test app has several return addresses registered with this service');
  });

  it("escapes the application's name", async () => {
    const odd = await f.registerClient('Tom & <b>"Jerry"</b>', [REDIRECT]);
    const page = await open(f.authorizeParams({ client: odd.clientId, redirectUri: 'https://elsewhere.example/cb' }, 'x'.repeat(43)));
    expect(page.status).toBe(400);
    expect(page.html).not.toContain('<b>');
    expect(page.html).toContain('Tom &#38; &#60;b&#62;&#34;Jerry&#34;&#60;/b&#62; asked to send you back');
  });

  it('an Approve without the CSRF token of the session, or from another origin: 403 "This answer could not be checked", nothing recorded', async () => {
    const before = await f.s.store.oauthGrants.list(f.s.accountId);
    const fields = { ...f.authorizeParams({}, pkcePair().challenge), decision: 'approve' };
    for (const page of [
      await post(owner, { ...fields, csrf_token: 'x'.repeat(43) }),
      await post(owner, fields),
      await post(owner, { ...fields, csrf_token: owner.csrf }, 'https://evil.example'),
    ]) {
      const words = expectRefusalPage(page, 403, 'This answer could not be checked');
      expect(words).toContain('so nothing was approved or denied. Go back to the application and start again.');
    }
    expect(await f.s.store.oauthGrants.list(f.s.accountId)).toEqual(before);
  });

  it('a repeated parameter from a browser: "This link is not valid", 400; a script still gets the envelope', async () => {
    const query = new URLSearchParams(f.authorizeParams({}, pkcePair().challenge));
    query.append('state', 'again');
    const res = await fetch(`${f.s.url}/oauth/authorize?${query}`, {
      headers: { accept: BROWSER_ACCEPT, cookie: owner.cookie },
      redirect: 'manual',
    });
    const words = expectRefusalPage({ status: res.status, headers: res.headers, html: await res.text() }, 400, 'This link is not valid');
    expect(words).toContain('The authorization request that brought you here is malformed');
    const script = await fetch(`${f.s.url}/oauth/authorize?${query}`, {
      headers: { 'x-api-key': f.s.keys.production },
      redirect: 'manual',
    });
    expect(script.status).toBe(400);
    expect(await script.json()).toEqual({ error: 'invalid_request', error_description: 'Parameter state must be given once' });
  });

  it('a caller that does not ask for HTML (fetch, curl, an OAuth library) still gets the envelope, without X-API-Key too', async () => {
    const { challenge } = pkcePair();
    const missing = f.authorizeParams({}, challenge);
    delete missing.redirect_uri;
    for (const [query, status, error] of [
      [f.authorizeParams({ client: UNKNOWN_CLIENT }, challenge), 400, 'invalid_client'],
      [f.authorizeParams({ redirectUri: 'https://evil.example.net/cb' }, challenge), 400, 'invalid_client'],
      // As before these pages: the library accepts the client, then finds no resource owner (no key) and refuses without redirecting.
      [missing, 401, 'access_denied'],
    ] as const) {
      for (const accept of [undefined, '*/*', 'application/json']) {
        const r = await authorize(f.s.url, query, accept === undefined ? { cookie: owner.cookie } : { accept, cookie: owner.cookie });
        expect(r.status).toBe(status);
        expect(r.location).toBeUndefined();
        expect((r.body as { error: string }).error).toBe(error);
      }
    }
  });

  it('links the same stylesheet as the consent page, and it is served with that integrity', async () => {
    const consent = await open(f.authorizeParams({ scope: 'jobs:read' }, pkcePair().challenge), owner);
    expect(consent.status).toBe(200);
    const refusal = await open(f.authorizeParams({ client: UNKNOWN_CLIENT }, pkcePair().challenge));
    const stylesheet = (html: string) => /<link rel="stylesheet" href="([^"]+)" integrity="([^"]+)"/.exec(html)!.slice(1);
    expect(stylesheet(refusal.html)).toEqual(stylesheet(consent.html));
    const [href, integrity] = stylesheet(refusal.html);
    const css = await fetch(`${f.s.url}${href}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(
      `sha384-${createHash('sha384')
        .update(Buffer.from(await css.arrayBuffer()))
        .digest('base64')}`,
    ).toBe(integrity);
  });
});
