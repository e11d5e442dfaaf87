/** Sessions (issue, validate, rotate, end; idle and absolute ends), cookies and CSRF tokens. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCsrf, csrfToken, csrfTokenMatches } from '../../api/sessions/csrf.js';
import {
  clearSessionCookie,
  endSessionByToken,
  issueSession,
  readSessionCookie,
  rotateSession,
  sessionCookie,
  validateSession,
} from '../../api/sessions/sessions.js';
import { hashToken } from '../../shared/accounts/secret-tokens.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';

const HOUR = 3_600_000;
const policy = { maxAgeMs: 24 * HOUR, idleMs: 2 * HOUR };

let store: KyselyAccountStore;
beforeAll(async () => {
  store = await createStore({ sqlitePath: ':memory:' });
});
afterAll(() => store?.close());

async function person() {
  return (await store.users.createUser({ email: `${crypto.randomUUID()}@example.com`, name: '' }))!;
}

describe('sessions', () => {
  it('issues a fresh 256-bit token whose hash alone is stored, and validates it with its person', async () => {
    const user = await person();
    const now = new Date(Date.UTC(2030, 0, 1));
    const issued = await issueSession(store, { userId: user.id, userAgent: 'UA', address: '192.0.2.1', now, policy });
    expect(issued.token).toMatch(/^s224s_[A-Za-z0-9_-]{43}$/);
    expect(issued.session.expiresAt).toEqual(new Date(now.getTime() + 24 * HOUR));
    const row = await store.db.selectFrom('sessions').selectAll().where('id', '=', issued.session.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(issued.token));
    expect(JSON.stringify(row)).not.toContain(issued.token);

    const active = await validateSession(store, issued.token, new Date(now.getTime() + 1000));
    expect(active?.user).toEqual(user);
    expect(active?.session.id).toBe(issued.session.id);
    const second = await issueSession(store, { userId: user.id, userAgent: 'UA', address: '192.0.2.1', now, policy });
    expect(second.token).not.toBe(issued.token);
    expect(second.session.id).not.toBe(issued.session.id);
  });

  it('refuses malformed, unknown, idle and expired tokens', async () => {
    const user = await person();
    const now = new Date(Date.UTC(2030, 0, 2));
    const { token } = await issueSession(store, { userId: user.id, userAgent: '', address: '', now, policy });
    for (const bad of [
      undefined,
      '',
      42,
      's224s_short',
      token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'),
      token.replace('s224s_', 's224l_'),
    ]) {
      expect(await validateSession(store, bad, now), String(bad)).toBeUndefined();
    }
    // Idle: alive 1 h 59 min after the last request, refused at 2 h.
    expect(await validateSession(store, token, new Date(now.getTime() + 2 * HOUR - 60_000))).toBeDefined();
    expect(await validateSession(store, token, new Date(now.getTime() + 4 * HOUR - 60_001))).toBeDefined(); // the request above touched it
    expect(await validateSession(store, token, new Date(now.getTime() + 6 * HOUR))).toBeUndefined();
  });

  it('ends at the absolute end however active it is', async () => {
    const user = await person();
    const now = new Date(Date.UTC(2030, 0, 3));
    const { token } = await issueSession(store, { userId: user.id, userAgent: '', address: '', now, policy });
    for (let h = 1; h < 24; h++) expect(await validateSession(store, token, new Date(now.getTime() + h * HOUR)), `hour ${h}`).toBeDefined();
    expect(await validateSession(store, token, new Date(now.getTime() + 24 * HOUR))).toBeUndefined();
  });

  it('writes last-seen at most once a minute', async () => {
    const user = await person();
    const now = new Date(Date.UTC(2030, 0, 4));
    const issued = await issueSession(store, { userId: user.id, userAgent: '', address: '', now, policy });
    await validateSession(store, issued.token, new Date(now.getTime() + 30_000));
    const lastSeen = async () => (await store.sessions.findByTokenHash(hashToken(issued.token)))!.session.lastSeenAt.getTime();
    expect(await lastSeen()).toBe(now.getTime());
    await validateSession(store, issued.token, new Date(now.getTime() + 61_000));
    expect(await lastSeen()).toBe(now.getTime() + 61_000);
  });

  it('rotates the token: the old cookie stops working, the session id and end stay', async () => {
    const user = await person();
    const now = new Date(Date.UTC(2030, 0, 5));
    const issued = await issueSession(store, { userId: user.id, userAgent: '', address: '', now, policy });
    const rotated = await rotateSession(store, issued.session, now);
    expect(rotated?.session.id).toBe(issued.session.id);
    expect(rotated?.token).not.toBe(issued.token);
    expect(rotated?.csrfToken).not.toBe(issued.csrfToken);
    expect(await validateSession(store, issued.token, now)).toBeUndefined();
    expect((await validateSession(store, rotated!.token, now))?.session.expiresAt).toEqual(issued.session.expiresAt);
    await endSessionByToken(store, rotated!.token);
    expect(await validateSession(store, rotated!.token, now)).toBeUndefined();
    await expect(endSessionByToken(store, 'garbage')).resolves.toBeUndefined();
  });
});

describe('session cookie', () => {
  const now = new Date(Date.UTC(2030, 0, 1));
  const expires = new Date(now.getTime() + 7 * 24 * HOUR);
  it('is HttpOnly, SameSite=Lax, Path=/, with Max-Age; Secure and __Host- over HTTPS', () => {
    expect(sessionCookie('s224s_x', expires, now, { secure: false })).toBe(
      'sha224d_session=s224s_x; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax',
    );
    expect(sessionCookie('s224s_x', expires, now, { secure: true })).toBe(
      '__Host-sha224d_session=s224s_x; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure',
    );
    expect(clearSessionCookie({ secure: true })).toBe('__Host-sha224d_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
  });
  it('is read by its name for the transport, and refused when repeated', () => {
    expect(readSessionCookie('a=1; sha224d_session=s224s_abc; b=2', { secure: false })).toBe('s224s_abc');
    expect(readSessionCookie('sha224d_session=s224s_abc', { secure: true })).toBeUndefined();
    expect(readSessionCookie('__Host-sha224d_session=s224s_abc', { secure: true })).toBe('s224s_abc');
    expect(readSessionCookie('sha224d_session=s224s_a; sha224d_session=s224s_b', { secure: false })).toBeUndefined();
    expect(readSessionCookie(undefined, { secure: false })).toBeUndefined();
  });
});

describe('CSRF', () => {
  const session = { token: 's224s_' + 'A'.repeat(43), id: 'ses_1' };
  const origins = ['https://hash.example.com'];
  it('derives a per-session token and compares it exactly', () => {
    const t = csrfToken(session.token, session.id);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrfTokenMatches(session.token, session.id, t)).toBe(true);
    expect(csrfTokenMatches(session.token, 'ses_2', t)).toBe(false);
    expect(csrfTokenMatches('s224s_' + 'B'.repeat(43), session.id, t)).toBe(false);
    expect(csrfTokenMatches(session.token, session.id, t.slice(1))).toBe(false);
    expect(csrfTokenMatches(session.token, session.id, undefined)).toBe(false);
    expect(csrfToken(session.token, session.id)).toBe(t);
  });

  it('lets safe methods through and demands same origin and the token on the rest', () => {
    const token = csrfToken(session.token, session.id);
    const ok = { method: 'POST', origin: origins[0], secFetchSite: undefined, presentedToken: token };
    expect(() =>
      assertCsrf({ ...ok, method: 'GET', presentedToken: undefined, origin: 'https://evil.example' }, session, origins),
    ).not.toThrow();
    expect(() => assertCsrf(ok, session, origins)).not.toThrow();
    expect(() => assertCsrf({ ...ok, origin: undefined, secFetchSite: 'same-origin' }, session, origins)).not.toThrow();
    // Compared as a browser serialises an origin: scheme and host case, default port.
    for (const origin of ['https://HASH.example.com', 'HTTPS://Hash.Example.Com:443']) {
      expect(() => assertCsrf({ ...ok, origin }, session, origins), origin).not.toThrow();
    }
    for (const bad of [
      { ...ok, presentedToken: undefined },
      { ...ok, presentedToken: 'x' },
      { ...ok, origin: 'https://evil.example' },
      { ...ok, origin: 'null' },
      { ...ok, origin: 'https://hash.example.com:8443' },
      { ...ok, origin: 'http://hash.example.com' },
      { ...ok, origin: 'https://hash.example.com/' },
      { ...ok, origin: undefined, secFetchSite: 'cross-site' },
      { ...ok, origin: undefined, secFetchSite: undefined },
      { ...ok, method: 'DELETE', presentedToken: undefined },
    ]) {
      expect(() => assertCsrf(bad, session, origins), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN', status: 403 }),
      );
    }
  });
});
