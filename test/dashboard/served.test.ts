/**
 * The dashboard as the real API node serves it: the management API under /dashboard/api with the
 * session cookie, Origin and CSRF checks, the pages under /dashboard with the strict CSP, and the
 * management routes in the served OpenAPI document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPersonToAccount } from '../../shared/accounts/people.js';
import { DASHBOARD_CSP, dashboardPages, NOT_BUILT_MESSAGE } from '../../api/dashboard/serve.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC } from '../helpers/digests.js';

const PASSWORD = 'a long enough password';
let s: TestServer;
let email: string;

beforeAll(async () => {
  s = await startTestServer();
  email = 'owner@example.com';
  const added = await addPersonToAccount(s.store, { accountId: s.accountId, email, role: 'owner', baseUrl: s.url });
  // The person sets the password with the link, as a browser would.
  const token = new URL(added.setupLink!.url).hash.replace('#token=', '');
  const set = await api('POST', '/links/set-password', { body: { token, password: PASSWORD } });
  expect(set.status).toBe(200);
});
afterAll(() => s?.close());

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function api(
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; csrf?: string; origin?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie) headers.cookie = options.cookie;
  if (options.csrf) headers['x-csrf-token'] = options.csrf;
  const origin = options.origin === undefined ? s.url : options.origin;
  if (origin !== null) headers.origin = origin;
  const res = await fetch(`${s.url}/dashboard/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

async function signIn(): Promise<{ cookie: string; csrf: string; accountId: string }> {
  const res = await api('POST', '/session', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/^sha224d_session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  return { cookie: setCookie.split(';')[0]!, csrf: res.body.csrfToken, accountId: res.body.memberships[0].accountId };
}

describe('management API on the API node', () => {
  it('answers 401 in the v2 envelope without a session', async () => {
    const res = await api('GET', '/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('signs in, answers /me and refuses a wrong password with the same 401 for an unknown email', async () => {
    const { cookie, accountId } = await signIn();
    const me = await api('GET', '/me', { cookie });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
    expect(accountId).toBe(s.accountId);
    const wrong = await api('POST', '/session', { body: { email, password: 'not the password at all' } });
    const unknown = await api('POST', '/session', { body: { email: 'nobody@example.com', password: PASSWORD } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
  });

  it('refuses a sign-in posted from another origin', async () => {
    const res = await api('POST', '/session', { body: { email, password: PASSWORD }, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    const spelled = await api('POST', '/session', { body: { email, password: PASSWORD }, origin: s.url.replace(/^http:/, 'HTTP:') });
    expect(spelled.status).toBe(200);
  });

  it('needs Origin and the CSRF token to change anything, then creates a key that works', async () => {
    const { cookie, csrf, accountId } = await signIn();
    const body = { type: 'production', description: 'from the dashboard' };
    const path = `/accounts/${accountId}/keys`;
    const noToken = await api('POST', path, { cookie, body });
    const wrongToken = await api('POST', path, { cookie, body, csrf: 'x'.repeat(43) });
    const foreign = await api('POST', path, { cookie, body, csrf, origin: 'https://evil.example' });
    const noOrigin = await api('POST', path, { cookie, body, csrf, origin: null });
    for (const refused of [noToken, wrongToken, foreign, noOrigin]) {
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    const created = await api('POST', path, { cookie, body, csrf });
    expect(created.status).toBe(200);
    // The same origin in another spelling (scheme case) is the same origin, as a browser compares it.
    const spelled = await api('POST', path, { cookie, body, csrf, origin: s.url.replace(/^http:/, 'HTTP:') });
    expect(spelled.status).toBe(200);
    const secret: string = created.body.secret;
    const hashed = await fetch(`${s.url}/v2/hash`, {
      method: 'POST',
      headers: { 'x-api-key': secret, 'content-type': 'application/json' },
      body: JSON.stringify({ data: 'abc' }),
    });
    expect(hashed.status).toBe(200);
    expect(((await hashed.json()) as { hash: string }).hash).toBe(SHA224_ABC);
    const listed = await api('GET', path, { cookie });
    expect(listed.body.keys.map((k: { id: string }) => k.id)).toContain(created.body.key.id);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it('validates bodies with the contract and answers 404 for an account the person is not in', async () => {
    const { cookie, csrf, accountId } = await signIn();
    const bad = await api('POST', `/accounts/${accountId}/keys`, { cookie, csrf, body: { type: 'nonsense', description: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_INPUT', details: 'field: type' });
    const other = await s.store.createAccount({ name: 'other', plan: 'pro' });
    const foreign = await api('GET', `/accounts/${other.id}`, { cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });

  it('signs out: the cookie is cleared and stops working', async () => {
    const { cookie, csrf } = await signIn();
    const out = await api('DELETE', '/session', { cookie, csrf });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^sha224d_session=; Path=\/; Max-Age=0/);
    expect((await api('GET', '/me', { cookie })).status).toBe(401);
  });

  it('lists the management routes in the served OpenAPI document', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/dashboard/api/session', '/dashboard/api/accounts/{accountId}/keys']));
  });
});

describe('dashboard pages on the API node', () => {
  it('serves the shell for every page under the strict CSP, never framed', async () => {
    for (const page of ['/dashboard', '/dashboard/', '/dashboard/keys', '/dashboard/set-password']) {
      const res = await fetch(s.url + page);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
      expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('answers a path that names no page with 404 and the same shell, whose router shows the not-found page', async () => {
    for (const page of ['/dashboard/nonexistent', '/dashboard/keys/extra', '/dashboard/Usage']) {
      const res = await fetch(s.url + page);
      expect(res.status, page).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
      expect(await res.text()).toBe(await (await fetch(`${s.url}/dashboard/`)).text());
    }
    expect((await fetch(`${s.url}/dashboard/usage/`)).status).toBe(200);
  });

  it('serves the hashed assets compressed and cacheable, and 404 for anything else there', async () => {
    const html = await (await fetch(`${s.url}/dashboard/`)).text();
    const script = /src="(\/dashboard\/assets\/app\.[0-9a-f]{12}\.js)"/.exec(html)![1]!;
    const res = await fetch(s.url + script, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await res.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${s.url}/dashboard/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/dashboard/assets/nothing.js`)).status).toBe(404);
  });
});

describe('a node without a dashboard build', () => {
  it('answers every page with 503 and the command that builds it', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'sha224d-no-dashboard-'));
    const app = express().use('/dashboard', dashboardPages(empty));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/dashboard/keys`);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe(`${NOT_BUILT_MESSAGE}\n`);
      expect(NOT_BUILT_MESSAGE).toContain('npm run build');
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    } finally {
      server.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
