import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { postJson } from '../helpers/api-server.js';
import { ABC, expectUnauthorized, LOOPBACK_REDIRECT, OAuthFixture, REDIRECT } from './oauth-fixture.js';
import { basic, pkcePair, postForm } from './oauth-helpers.js';

/** Form-urlencoding as oauth4webapi applies it before Basic (RFC 6749 §2.3.1): `_` and `-` too. */
function strictFormEncode(value: string): string {
  return encodeURIComponent(value).replace(/[-_.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const rawBasic = (text: string) => ({ authorization: `Basic ${Buffer.from(text).toString('base64')}` });

describe('POST /oauth/token: authorization code and refresh grants (RFC 6749 §4.1.3, §6)', () => {
  const f = new OAuthFixture();
  beforeAll(() => f.start());
  afterAll(() => f.close());

  it('register → authorize → code → token → /v2/hash → refresh → revoke → refused', async () => {
    const { code, verifier } = await f.getCode();
    expect(code).toMatch(/^s224ac_[A-Za-z0-9_-]{43}$/);

    const t = await f.exchange(code, verifier);
    expect(t.status).toBe(200);
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.body).toMatchObject({ token_type: 'Bearer', scope: 'hash:create hash:verify' });
    expect(t.body.access_token).toMatch(/^s224at_/);
    expect(t.body.refresh_token).toMatch(/^s224rt_/);
    expect(t.body.expires_in).toBeGreaterThan(3590);
    expect(t.body.expires_in).toBeLessThanOrEqual(3600);

    const hashed = await f.hash(t.body.access_token);
    expect(hashed.status).toBe(200);
    expect(hashed.body.hash).toBe(ABC);

    const r = await f.refresh(t.body.refresh_token);
    expect(r.status).toBe(200);
    expect(r.body.refresh_token).not.toBe(t.body.refresh_token);
    expect(r.body.scope).toBe('hash:create hash:verify');
    expect((await f.hash(r.body.access_token)).status).toBe(200);

    const revoked = await f.revoke(r.body.refresh_token);
    expect(revoked.status).toBe(200);
    // Revoking either token revokes the whole grant: both access tokens and the refresh token.
    expectUnauthorized(await f.hash(r.body.access_token));
    expectUnauthorized(await f.hash(t.body.access_token));
    const again = await f.refresh(r.body.refresh_token);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('a refresh may narrow the scope but not widen it', async () => {
    const { refresh: rt } = await f.tokens({ scope: 'hash:verify usage:read' });
    const wider = await postForm(
      `${f.s.url}/oauth/token`,
      { grant_type: 'refresh_token', refresh_token: rt, scope: 'hash:create' },
      basic(f.clientId, f.clientSecret),
    );
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
  });

  describe('the token endpoint', () => {
    it('refuses a reused code, and revokes the tokens the first use obtained', async () => {
      const { code, verifier } = await f.getCode();
      const first = await f.exchange(code, verifier);
      expect(first.status).toBe(200);
      const second = await f.exchange(code, verifier);
      expect(second.status).toBe(400);
      expect(second.body.error).toBe('invalid_grant');
      expectUnauthorized(await f.hash(first.body.access_token));
      expect((await f.refresh(first.body.refresh_token)).body.error).toBe('invalid_grant');
    });

    it('refuses an expired code', async () => {
      const { code, verifier } = await f.getCode();
      await f.db
        .updateTable('oauth_codes')
        .set({ expires_at: Date.now() - 1000 })
        .where('consumed_at', 'is', null)
        .execute();
      const r = await f.exchange(code, verifier);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    });

    it('codes live 60 seconds', async () => {
      const before = Date.now();
      await f.getCode();
      const row = await f.db.selectFrom('oauth_codes').select('expires_at').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(Number(row.expires_at) - before).toBeGreaterThan(58_000);
      expect(Number(row.expires_at) - before).toBeLessThanOrEqual(61_000);
    });

    it("refuses a redirect_uri other than the authorization request's, and the code is spent", async () => {
      const { code, verifier } = await f.getCode({ redirectUri: LOOPBACK_REDIRECT });
      const wrong = await f.exchange(code, verifier, { redirectUri: REDIRECT });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_request');
      expect((await f.exchange(code, verifier, { redirectUri: LOOPBACK_REDIRECT })).body.error).toBe('invalid_grant');
    });

    it('refuses a wrong code_verifier, or none', async () => {
      const a = await f.getCode();
      const wrong = await f.exchange(a.code, pkcePair().verifier);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_grant');
      const b = await f.getCode();
      const r = await postForm(
        `${f.s.url}/oauth/token`,
        { grant_type: 'authorization_code', code: b.code, redirect_uri: REDIRECT },
        basic(f.clientId, f.clientSecret),
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_grant');
    });

    it('refuses a wrong client secret: 401 with WWW-Authenticate over Basic, 400 in the body', async () => {
      const { code, verifier } = await f.getCode();
      const wrongSecret = 's224cs_' + 'B'.repeat(43);
      const viaBasic = await f.exchange(code, verifier, { auth: basic(f.clientId, wrongSecret) });
      expect(viaBasic.status).toBe(401);
      expect(viaBasic.body.error).toBe('invalid_client');
      expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
      const inBody = await f.exchange(code, verifier, { auth: {}, body: { client_id: f.clientId, client_secret: wrongSecret } });
      expect(inBody.status).toBe(400);
      expect(inBody.body.error).toBe('invalid_client');
      // The right secret in the body still works: the code was not spent by failed client authentication.
      const ok = await f.exchange(code, verifier, { auth: {}, body: { client_id: f.clientId, client_secret: f.clientSecret } });
      expect(ok.status).toBe(200);
    });

    it('a confidential client may not skip its secret by sending a code_verifier', async () => {
      const { code, verifier } = await f.getCode();
      const r = await f.exchange(code, verifier, { auth: {}, body: { client_id: f.clientId } });
      expect(r.body.error).toBe('invalid_client');
    });

    it('a confidential client must authenticate to refresh', async () => {
      const { refresh: rt } = await f.tokens();
      const r = await postForm(`${f.s.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: rt, client_id: f.clientId });
      expect(r.body.error).toBe('invalid_client');
    });

    it('refuses a code issued to another client', async () => {
      const other = await registerOAuthClient(f.s.store, { accountId: f.s.accountId, name: 'Other app', redirectUris: [REDIRECT] });
      f.issued.push(other.clientSecret!);
      const { code, verifier } = await f.getCode();
      const r = await f.exchange(code, verifier, { auth: basic(other.clientId, other.clientSecret!) });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_grant');
    });

    it('a replayed refresh token revokes the whole grant (rotation reuse detection)', async () => {
      const first = await f.tokens();
      const rotated = await f.refresh(first.refresh);
      expect(rotated.status).toBe(200);
      const replay = await f.refresh(first.refresh);
      expect(replay.body.error).toBe('invalid_grant');
      expectUnauthorized(await f.hash(rotated.body.access_token));
      expect((await f.refresh(rotated.body.refresh_token)).body.error).toBe('invalid_grant');
    });

    it('speaks form encoding only, and rejects unsupported grants', async () => {
      const json = await postJson(
        `${f.s.url}/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: 'x' },
        basic(f.clientId, f.clientSecret),
      );
      expect(json.status).toBe(400);
      expect(json.body.error).toBe('invalid_request');
      const password = await postForm(
        `${f.s.url}/oauth/token`,
        { grant_type: 'password', username: 'a', password: 'b' },
        basic(f.clientId, f.clientSecret),
      );
      expect(password.status).toBe(400);
      expect(password.body.error).toBe('unauthorized_client');
    });
  });

  describe('public clients', () => {
    it('use PKCE without a secret, and refresh without one', async () => {
      const pub = await registerOAuthClient(f.s.store, {
        accountId: f.s.accountId,
        name: 'CLI',
        redirectUris: [LOOPBACK_REDIRECT],
        isPublic: true,
      });
      expect(pub.clientSecret).toBeUndefined();
      const { code, verifier } = await f.getCode({ client: pub.clientId, redirectUri: LOOPBACK_REDIRECT });
      const t = await f.exchange(code, verifier, { redirectUri: LOOPBACK_REDIRECT, auth: {}, body: { client_id: pub.clientId } });
      expect(t.status).toBe(200);
      expect((await f.hash(t.body.access_token)).status).toBe(200);
      const r = await postForm(`${f.s.url}/oauth/token`, {
        grant_type: 'refresh_token',
        refresh_token: t.body.refresh_token,
        client_id: pub.clientId,
      });
      expect(r.status).toBe(200);
      f.issued.push(r.body.access_token, r.body.refresh_token);
      const withSecret = await postForm(
        `${f.s.url}/oauth/token`,
        { grant_type: 'refresh_token', refresh_token: r.body.refresh_token },
        basic(pub.clientId, 's224cs_' + 'D'.repeat(43)),
      );
      expect(withSecret.body.error).toBe('invalid_client');
      expect(
        (
          await f
            .revoke(r.body.refresh_token, {})
            .then(() => postForm(`${f.s.url}/oauth/revoke`, { token: r.body.access_token, client_id: pub.clientId }))
        ).status,
      ).toBe(200);
      expectUnauthorized(await f.hash(r.body.access_token));
    });
  });

  describe('client authentication (RFC 6749 §2.3)', () => {
    it('decodes form-urlencoded Basic credentials (s224c%5F…, as libraries send them) and raw ones (curl -u)', async () => {
      const encoded = `${strictFormEncode(f.clientId)}:${strictFormEncode(f.clientSecret)}`;
      expect(encoded).toMatch(/^s224c%5F.*:s224cs%5F/);
      const a = await f.getCode();
      const viaEncoded = await f.exchange(a.code, a.verifier, { auth: rawBasic(encoded) });
      expect(viaEncoded.status).toBe(200);
      const viaRaw = await f.refresh(viaEncoded.body.refresh_token, rawBasic(`${f.clientId}:${f.clientSecret}`));
      expect(viaRaw.status).toBe(200);
      expect((await f.refresh(viaRaw.body.refresh_token, rawBasic(encoded))).status).toBe(200);
    });

    it('refuses Basic together with client_secret in the body (invalid_request), and the code is not spent', async () => {
      const { code, verifier } = await f.getCode();
      const both = await f.exchange(code, verifier, { body: { client_id: f.clientId, client_secret: f.clientSecret } });
      expect(both.status).toBe(400);
      expect(both.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/one way only/) });
      expect((await f.exchange(code, verifier)).status).toBe(200);
    });

    it('accepts a client_id in the body next to Basic when it names the same client, refuses another', async () => {
      const a = await f.getCode();
      expect((await f.exchange(a.code, a.verifier, { body: { client_id: f.clientId } })).status).toBe(200);
      const other = await f.registerClient('Named in body');
      const b = await f.getCode();
      const mismatch = await f.exchange(b.code, b.verifier, { body: { client_id: other.clientId } });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error).toBe('invalid_request');
    });

    it.each<[string, Record<string, string>]>([
      ['no credentials at all', {}],
      ['a Bearer header', { authorization: 'Bearer s224at_x' }],
      ['Basic without a colon', rawBasic('s224c_abc')],
      ['Basic with an empty secret', rawBasic('s224c_abc:')],
      ['Basic with a broken percent-escape', rawBasic('s224c%5:x')],
    ])('answers %s with 401 invalid_client and a Basic challenge', async (_name, auth) => {
      const { code, verifier } = await f.getCode();
      const r = await f.exchange(code, verifier, { auth });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="sha224d"');
    });
  });

  describe('a refused refresh changes nothing: the refresh token still works afterwards', () => {
    it.each<[string, (rt: string) => Promise<{ status: number; body: any }>, number, string]>([
      ['a wider scope', (rt) => f.refresh(rt, f.basic(), { scope: 'hash:create usage:read' }), 400, 'invalid_scope'],
      ['a malformed scope', (rt) => f.refresh(rt, f.basic(), { scope: '"' }), 400, 'invalid_scope'],
      ['a wrong client secret', (rt) => f.refresh(rt, f.basic(f.clientId, 's224cs_' + 'G'.repeat(43))), 401, 'invalid_client'],
      ['Basic and client_secret at once', (rt) => f.refresh(rt, f.basic(), { client_secret: f.clientSecret }), 400, 'invalid_request'],
      [
        'another client',
        async (rt) => {
          const other = await f.registerClient('Not the holder');
          return f.refresh(rt, f.basic(other.clientId, other.clientSecret));
        },
        400,
        'invalid_grant',
      ],
    ])('refused for %s', async (_name, refuse, status, error) => {
      const { access, refresh: rt } = await f.tokens({ scope: 'usage:read hash:verify' });
      const refused = await refuse(rt);
      expect(refused.status).toBe(status);
      expect(refused.body.error).toBe(error);
      // Nothing was revoked: the access token works, the same refresh token rotates, the new pair works.
      expect((await f.verify(access)).status).toBe(200);
      const again = await f.refresh(rt);
      expect(again.status).toBe(200);
      expect(again.body.scope).toBe('usage:read hash:verify');
      expect((await f.verify(again.body.access_token)).status).toBe(200);
      expect((await f.refresh(again.body.refresh_token)).status).toBe(200);
    });

    it('a narrower scope is granted, and the new refresh token keeps the narrower scope', async () => {
      const { refresh: rt } = await f.tokens({ scope: 'hash:create hash:verify' });
      const narrowed = await f.refresh(rt, f.basic(), { scope: 'hash:verify' });
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.scope).toBe('hash:verify');
      expect((await f.hash(narrowed.body.access_token)).status).toBe(403);
      const wider = await f.refresh(narrowed.body.refresh_token, f.basic(), { scope: 'hash:create' });
      expect(wider.body.error).toBe('invalid_scope');
      expect((await f.refresh(narrowed.body.refresh_token)).body.scope).toBe('hash:verify');
    });

    it('two refreshes racing with one token: one wins, the other is a replay and revokes the grant', async () => {
      const { refresh: rt } = await f.tokens();
      const [a, b] = await Promise.all([f.refresh(rt), f.refresh(rt)]);
      expect([a.status, b.status].sort()).toEqual([200, 400]);
      const winner = a.status === 200 ? a : b;
      expect((a.status === 200 ? b : a).body.error).toBe('invalid_grant');
      expectUnauthorized(await f.hash(winner.body.access_token));
      expect((await f.refresh(winner.body.refresh_token)).body.error).toBe('invalid_grant');
    });
  });

  it('stores no client secret, code or token in clear (every row of every OAuth table)', async () => {
    await f.expectNoSecretsInClear(41);
  });
});
