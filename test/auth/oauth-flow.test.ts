import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEARER_MESSAGES } from '../../shared/auth/jwt.js';
import { registerOAuthClient } from '../../shared/auth/oauth-clients.js';
import type { KyselyAccountStore } from '../../shared/store/kysely-store.js';
import type { Database } from '../../shared/store/schema.js';
import type { KeyType } from '../../shared/store/types.js';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { authorize, basic, pkcePair, postForm } from './oauth-helpers.js';

const ABC = '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7';
const REDIRECT = 'https://app.example.com/callback';
const LOOPBACK_REDIRECT = 'http://127.0.0.1:8765/cb';

describe('OAuth 2.0 authorization code flow with PKCE over HTTP (SPEC "Authentication" rule 8)', () => {
  let s: TestServer;
  let db: Kysely<Database>;
  let clientId: string;
  let clientSecret: string;
  /** Every secret the server handed out, for the final scan of the tables. */
  const issued: string[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    db = (s.store as KyselyAccountStore).db;
    const client = await registerOAuthClient(db, { accountId: s.accountId, name: 'Test app', redirectUris: [REDIRECT, LOOPBACK_REDIRECT] });
    clientId = client.clientId;
    clientSecret = client.clientSecret!;
    issued.push(clientSecret);
  });
  afterAll(() => s.close());

  interface CodeOptions {
    scope?: string;
    key?: string;
    client?: string;
    redirectUri?: string;
    extra?: Record<string, string>;
    method?: 'GET' | 'POST';
  }

  function authorizeParams(o: CodeOptions, challenge: string): Record<string, string> {
    return {
      response_type: 'code',
      client_id: o.client ?? clientId,
      redirect_uri: o.redirectUri ?? REDIRECT,
      scope: o.scope ?? 'hash:create hash:verify',
      state: 'st-123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...o.extra,
    };
  }

  async function getCode(o: CodeOptions = {}): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const r = await authorize(s.url, authorizeParams(o, challenge), { 'x-api-key': o.key ?? s.keys.production }, o.method);
    expect(r.status).toBe(302);
    expect(r.location?.searchParams.get('error')).toBeNull();
    expect(r.location?.searchParams.get('state')).toBe('st-123');
    const code = r.location!.searchParams.get('code')!;
    issued.push(code);
    return { code, verifier };
  }

  async function exchange(code: string, verifier: string, o: { redirectUri?: string; auth?: Record<string, string>; body?: Record<string, string> } = {}) {
    const r = await postForm(
      `${s.url}/oauth/token`,
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: o.redirectUri ?? REDIRECT, ...o.body },
      o.auth ?? basic(clientId, clientSecret),
    );
    if (r.status === 200) issued.push(r.body.access_token, r.body.refresh_token);
    return r;
  }

  async function tokens(o: CodeOptions = {}): Promise<{ access: string; refresh: string }> {
    const { code, verifier } = await getCode(o);
    const r = await exchange(code, verifier, { redirectUri: o.redirectUri });
    expect(r.status).toBe(200);
    return { access: r.body.access_token, refresh: r.body.refresh_token };
  }

  const refresh = async (refreshToken: string, auth = basic(clientId, clientSecret)) => {
    const r = await postForm(`${s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken }, auth);
    if (r.status === 200) issued.push(r.body.access_token, r.body.refresh_token);
    return r;
  };
  const revoke = (token: string, auth = basic(clientId, clientSecret)) => postForm(`${s.url}/oauth/revoke`, { token }, auth);
  const hash = (token: string) => postJson(`${s.url}/v2/hash`, { data: 'abc' }, { authorization: `Bearer ${token}` });
  const verify = (token: string) => postJson(`${s.url}/v2/verify`, { data: 'abc', hash: ABC }, { authorization: `Bearer ${token}` });

  function expectUnauthorized(r: { status: number; body: any }) {
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', message: BEARER_MESSAGES.invalid });
  }

  it('register → authorize → code → token → /v2/hash → refresh → revoke → refused', async () => {
    const { code, verifier } = await getCode();
    expect(code).toMatch(/^s224ac_[A-Za-z0-9_-]{43}$/);

    const t = await exchange(code, verifier);
    expect(t.status).toBe(200);
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.body).toMatchObject({ token_type: 'Bearer', scope: 'hash:create hash:verify' });
    expect(t.body.access_token).toMatch(/^s224at_/);
    expect(t.body.refresh_token).toMatch(/^s224rt_/);
    expect(t.body.expires_in).toBeGreaterThan(3590);
    expect(t.body.expires_in).toBeLessThanOrEqual(3600);

    const hashed = await hash(t.body.access_token);
    expect(hashed.status).toBe(200);
    expect(hashed.body.hash).toBe(ABC);

    const r = await refresh(t.body.refresh_token);
    expect(r.status).toBe(200);
    expect(r.body.refresh_token).not.toBe(t.body.refresh_token);
    expect(r.body.scope).toBe('hash:create hash:verify');
    expect((await hash(r.body.access_token)).status).toBe(200);

    const revoked = await revoke(r.body.refresh_token);
    expect(revoked.status).toBe(200);
    // Revoking either token revokes the whole grant: both access tokens and the refresh token.
    expectUnauthorized(await hash(r.body.access_token));
    expectUnauthorized(await hash(t.body.access_token));
    const again = await refresh(r.body.refresh_token);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('POST /oauth/authorize works like GET', async () => {
    const { access } = await tokens({ method: 'POST' });
    expect((await hash(access)).status).toBe(200);
  });

  it('scopes are permissions: hash:verify alone → 403 on /v2/hash, 200 on /v2/verify', async () => {
    const { access } = await tokens({ scope: 'hash:verify' });
    const denied = await hash(access);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await verify(access)).body.valid).toBe(true);
  });

  it('a refresh may narrow the scope but not widen it', async () => {
    const { refresh: rt } = await tokens({ scope: 'hash:verify usage:read' });
    const wider = await postForm(`${s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: rt, scope: 'hash:create' }, basic(clientId, clientSecret));
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
  });

  describe('the authorization endpoint', () => {
    it('refuses an unregistered redirect_uri without redirecting to it', async () => {
      const r = await authorize(s.url, authorizeParams({ redirectUri: 'https://evil.example.net/cb' }, pkcePair().challenge), { 'x-api-key': s.keys.production });
      expect(r.status).toBe(400);
      expect(r.location).toBeUndefined();
      expect(r.body).toMatchObject({ error: 'invalid_client' });
      expect(r.body.error_description).toMatch(/redirect_uri/);
    });

    it('refuses an unknown client without redirecting', async () => {
      const r = await authorize(s.url, authorizeParams({ client: 's224c_' + 'A'.repeat(43) }, pkcePair().challenge), { 'x-api-key': s.keys.production });
      expect(r.status).toBe(400);
      expect(r.location).toBeUndefined();
      expect(r.body.error).toBe('invalid_client');
    });

    it.each<[string, Record<string, string> | KeyType, number]>([
      ['no API key', {}, 401],
      ['a malformed API key', { 'x-api-key': 'nope' }, 401],
      ['a read-only key', 'read_only', 403],
      ['a development key', 'development', 403],
    ])('refuses a resource owner with %s (JSON, no redirect)', async (_name, headers, status) => {
      const h = typeof headers === 'string' ? { 'x-api-key': s.keys[headers] } : headers;
      const r = await authorize(s.url, authorizeParams({}, pkcePair().challenge), h);
      expect(r.status).toBe(status);
      expect(r.location).toBeUndefined();
      expect(r.body.error).toBe('access_denied');
    });

    it('refuses a non-Enterprise account', async () => {
      const { secret } = await s.newKey({ plan: 'pro' });
      const r = await authorize(s.url, authorizeParams({}, pkcePair().challenge), { 'x-api-key': secret });
      expect(r.status).toBe(403);
      expect(r.body.error).toBe('access_denied');
    });

    async function expectErrorRedirect(o: CodeOptions, challenge: string | undefined, error: string, key = s.keys.production) {
      const params = authorizeParams(o, challenge ?? '');
      if (challenge === undefined) {
        delete params.code_challenge;
        delete params.code_challenge_method;
      }
      const r = await authorize(s.url, params, { 'x-api-key': key });
      expect(r.status).toBe(302);
      expect(`${r.location!.origin}${r.location!.pathname}`).toBe(o.redirectUri ?? REDIRECT);
      expect(r.location!.searchParams.get('error')).toBe(error);
      expect(r.location!.searchParams.get('code')).toBeNull();
      return r;
    }

    it('redirects access_denied for another Enterprise account\'s key', async () => {
      const { secret } = await s.newKey({ plan: 'enterprise' });
      const r = await expectErrorRedirect({}, pkcePair().challenge, 'access_denied', secret);
      expect(r.location!.searchParams.get('state')).toBe('st-123');
    });

    it('redirects access_denied when the owner sends allowed=false', async () => {
      await expectErrorRedirect({ extra: { allowed: 'false' } }, pkcePair().challenge, 'access_denied');
    });

    it('requires PKCE with S256', async () => {
      await expectErrorRedirect({}, undefined, 'invalid_request');
      await expectErrorRedirect({ extra: { code_challenge_method: 'plain' } }, pkcePair().challenge, 'invalid_request');
      await expectErrorRedirect({}, 'short', 'invalid_request');
    });

    it('requires a known, non-empty scope', async () => {
      await expectErrorRedirect({ scope: '' }, pkcePair().challenge, 'invalid_scope');
      await expectErrorRedirect({ scope: 'hash:create admin' }, pkcePair().challenge, 'invalid_scope');
    });

    it('requires state', async () => {
      const params = authorizeParams({}, pkcePair().challenge);
      delete params.state;
      const r = await authorize(s.url, params, { 'x-api-key': s.keys.production });
      expect(r.location!.searchParams.get('error')).toBe('invalid_request');
    });

    it('refuses a repeated parameter', async () => {
      const { challenge } = pkcePair();
      const query = new URLSearchParams(authorizeParams({}, challenge));
      query.append('scope', 'jobs:read');
      const res = await fetch(`${s.url}/oauth/authorize?${query}`, { headers: { 'x-api-key': s.keys.production }, redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    });
  });

  describe('the token endpoint', () => {
    it('refuses a reused code, and revokes the tokens the first use obtained', async () => {
      const { code, verifier } = await getCode();
      const first = await exchange(code, verifier);
      expect(first.status).toBe(200);
      const second = await exchange(code, verifier);
      expect(second.status).toBe(400);
      expect(second.body.error).toBe('invalid_grant');
      expectUnauthorized(await hash(first.body.access_token));
      expect((await refresh(first.body.refresh_token)).body.error).toBe('invalid_grant');
    });

    it('refuses an expired code', async () => {
      const { code, verifier } = await getCode();
      await db.updateTable('oauth_codes').set({ expires_at: Date.now() - 1000 }).where('consumed_at', 'is', null).execute();
      const r = await exchange(code, verifier);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    });

    it('codes live 60 seconds', async () => {
      const before = Date.now();
      await getCode();
      const row = await db.selectFrom('oauth_codes').select('expires_at').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(Number(row.expires_at) - before).toBeGreaterThan(58_000);
      expect(Number(row.expires_at) - before).toBeLessThanOrEqual(61_000);
    });

    it('refuses a redirect_uri other than the authorization request\'s, and the code is spent', async () => {
      const { code, verifier } = await getCode({ redirectUri: LOOPBACK_REDIRECT });
      const wrong = await exchange(code, verifier, { redirectUri: REDIRECT });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_request');
      expect((await exchange(code, verifier, { redirectUri: LOOPBACK_REDIRECT })).body.error).toBe('invalid_grant');
    });

    it('refuses a wrong code_verifier, or none', async () => {
      const a = await getCode();
      const wrong = await exchange(a.code, pkcePair().verifier);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_grant');
      const b = await getCode();
      const r = await postForm(`${s.url}/oauth/token`, { grant_type: 'authorization_code', code: b.code, redirect_uri: REDIRECT }, basic(clientId, clientSecret));
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_grant');
    });

    it('refuses a wrong client secret: 401 with WWW-Authenticate over Basic, 400 in the body', async () => {
      const { code, verifier } = await getCode();
      const wrongSecret = 's224cs_' + 'B'.repeat(43);
      const viaBasic = await exchange(code, verifier, { auth: basic(clientId, wrongSecret) });
      expect(viaBasic.status).toBe(401);
      expect(viaBasic.body.error).toBe('invalid_client');
      expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
      const inBody = await exchange(code, verifier, { auth: {}, body: { client_id: clientId, client_secret: wrongSecret } });
      expect(inBody.status).toBe(400);
      expect(inBody.body.error).toBe('invalid_client');
      // The right secret in the body still works: the code was not spent by failed client authentication.
      const ok = await exchange(code, verifier, { auth: {}, body: { client_id: clientId, client_secret: clientSecret } });
      expect(ok.status).toBe(200);
    });

    it('a confidential client may not skip its secret by sending a code_verifier', async () => {
      const { code, verifier } = await getCode();
      const r = await exchange(code, verifier, { auth: {}, body: { client_id: clientId } });
      expect(r.body.error).toBe('invalid_client');
    });

    it('a confidential client must authenticate to refresh', async () => {
      const { refresh: rt } = await tokens();
      const r = await postForm(`${s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: rt, client_id: clientId });
      expect(r.body.error).toBe('invalid_client');
    });

    it('refuses a code issued to another client', async () => {
      const other = await registerOAuthClient(db, { accountId: s.accountId, name: 'Other app', redirectUris: [REDIRECT] });
      issued.push(other.clientSecret!);
      const { code, verifier } = await getCode();
      const r = await exchange(code, verifier, { auth: basic(other.clientId, other.clientSecret!) });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_grant');
    });

    it('a replayed refresh token revokes the whole grant (rotation reuse detection)', async () => {
      const first = await tokens();
      const rotated = await refresh(first.refresh);
      expect(rotated.status).toBe(200);
      const replay = await refresh(first.refresh);
      expect(replay.body.error).toBe('invalid_grant');
      expectUnauthorized(await hash(rotated.body.access_token));
      expect((await refresh(rotated.body.refresh_token)).body.error).toBe('invalid_grant');
    });

    it('speaks form encoding only, and rejects unsupported grants', async () => {
      const json = await postJson(`${s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'x' }, basic(clientId, clientSecret));
      expect(json.status).toBe(400);
      expect(json.body.error).toBe('invalid_request');
      const password = await postForm(`${s.url}/oauth/token`, { grant_type: 'password', username: 'a', password: 'b' }, basic(clientId, clientSecret));
      expect(password.status).toBe(400);
      expect(password.body.error).toBe('unauthorized_client');
    });
  });

  describe('access tokens on the API', () => {
    it('an expired access token → 401 EXPIRED_KEY', async () => {
      const { access } = await tokens();
      await db.updateTable('oauth_access_tokens').set({ expires_at: Date.now() - 1 }).where('revoked_at', 'is', null).execute();
      const r = await hash(access);
      expect(r.status).toBe(401);
      expect(r.body.error).toEqual({ code: 'EXPIRED_KEY', message: BEARER_MESSAGES.expired, details: '' });
    });

    it('an unknown access token → 401 UNAUTHORIZED', async () => {
      expectUnauthorized(await hash('s224at_' + 'C'.repeat(43)));
    });

    it('stops working when the account leaves the Enterprise plan; refresh is refused too', async () => {
      const { secret, accountId } = await s.newKey({ plan: 'enterprise' });
      const own = await registerOAuthClient(db, { accountId, name: 'Downgraded', redirectUris: [REDIRECT] });
      issued.push(own.clientSecret!);
      const { verifier, challenge } = pkcePair();
      const a = await authorize(s.url, authorizeParams({ client: own.clientId }, challenge), { 'x-api-key': secret });
      const code = a.location!.searchParams.get('code')!;
      issued.push(code);
      const t = await exchange(code, verifier, { auth: basic(own.clientId, own.clientSecret!) });
      issued.push(t.body.access_token, t.body.refresh_token);
      expect((await hash(t.body.access_token)).status).toBe(200);
      await s.store.setPlan(accountId, 'pro');
      const r = await hash(t.body.access_token);
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', message: BEARER_MESSAGES.notEnterprise });
      expect((await refresh(t.body.refresh_token, basic(own.clientId, own.clientSecret!))).body.error).toBe('invalid_grant');
    });
  });

  describe('public clients', () => {
    it('use PKCE without a secret, and refresh without one', async () => {
      const pub = await registerOAuthClient(db, { accountId: s.accountId, name: 'CLI', redirectUris: [LOOPBACK_REDIRECT], isPublic: true });
      expect(pub.clientSecret).toBeUndefined();
      const { code, verifier } = await getCode({ client: pub.clientId, redirectUri: LOOPBACK_REDIRECT });
      const t = await exchange(code, verifier, { redirectUri: LOOPBACK_REDIRECT, auth: {}, body: { client_id: pub.clientId } });
      expect(t.status).toBe(200);
      expect((await hash(t.body.access_token)).status).toBe(200);
      const r = await postForm(`${s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t.body.refresh_token, client_id: pub.clientId });
      expect(r.status).toBe(200);
      issued.push(r.body.access_token, r.body.refresh_token);
      const withSecret = await postForm(`${s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: r.body.refresh_token }, basic(pub.clientId, 's224cs_' + 'D'.repeat(43)));
      expect(withSecret.body.error).toBe('invalid_client');
      expect((await revoke(r.body.refresh_token, {}).then(() => postForm(`${s.url}/oauth/revoke`, { token: r.body.access_token, client_id: pub.clientId }))).status).toBe(200);
      expectUnauthorized(await hash(r.body.access_token));
    });
  });

  describe('revocation (RFC 7009)', () => {
    it('needs client authentication', async () => {
      const { access } = await tokens();
      const r = await revoke(access, basic(clientId, 's224cs_' + 'E'.repeat(43)));
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
      expect((await hash(access)).status).toBe(200);
    });

    it('answers 200 for an unknown token and for another client\'s token, revoking nothing', async () => {
      expect((await revoke('s224at_' + 'F'.repeat(43))).status).toBe(200);
      expect((await revoke('garbage')).status).toBe(200);
      const other = await registerOAuthClient(db, { accountId: s.accountId, name: 'Third app', redirectUris: [REDIRECT] });
      issued.push(other.clientSecret!);
      const { access } = await tokens();
      expect((await revoke(access, basic(other.clientId, other.clientSecret!))).status).toBe(200);
      expect((await hash(access)).status).toBe(200);
    });

    it('revoking an access token revokes its grant', async () => {
      const { access, refresh: rt } = await tokens();
      expect((await revoke(access)).status).toBe(200);
      expectUnauthorized(await hash(access));
      expect((await refresh(rt)).body.error).toBe('invalid_grant');
    });

    it('refuses a request without a token', async () => {
      const r = await postForm(`${s.url}/oauth/revoke`, {}, basic(clientId, clientSecret));
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
    });
  });

  it('stores no client secret, code or token in clear (every row of every OAuth table)', async () => {
    expect(issued.length).toBeGreaterThan(40);
    const dump = JSON.stringify([
      await db.selectFrom('oauth_clients').selectAll().execute(),
      await db.selectFrom('oauth_codes').selectAll().execute(),
      await db.selectFrom('oauth_access_tokens').selectAll().execute(),
      await db.selectFrom('oauth_refresh_tokens').selectAll().execute(),
    ]);
    for (const secret of issued) {
      expect(typeof secret).toBe('string');
      expect(dump.includes(secret)).toBe(false);
      // Not even the random part without its prefix.
      expect(dump.includes(secret.slice(secret.indexOf('_') + 1))).toBe(false);
    }
    expect(s.logs()).not.toMatch(/s224(cs|ac|at|rt)_/);
  });
});
