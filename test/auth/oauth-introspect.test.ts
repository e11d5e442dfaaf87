import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { OAuthFixture, REDIRECT } from './oauth-fixture.js';
import { postForm } from './oauth-helpers.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('POST /oauth/introspect (RFC 7662)', () => {
  const f = new OAuthFixture();
  beforeAll(() => f.start());
  afterAll(() => f.close());

  const expectInactive = (r: { status: number; body: unknown }) => {
    expect(r.status).toBe(200);
    // Exactly this: an inactive answer says nothing else (RFC 7662 §2.2).
    expect(r.body).toEqual({ active: false });
  };

  it('describes an active access token: scope, client, type, lifetime, owner, issuer', async () => {
    const before = nowSeconds();
    const { access } = await f.tokens({ scope: 'hash:verify usage:read' });
    const r = await f.introspect(access);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({
      active: true,
      scope: 'hash:verify usage:read',
      client_id: f.clientId,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
      sub: f.s.accountId,
      iss: f.s.url,
    });
    expect(r.body.iat).toBeGreaterThanOrEqual(before);
    expect(r.body.iat).toBeLessThanOrEqual(nowSeconds());
    expect(r.body.exp - r.body.iat).toBeGreaterThanOrEqual(3599);
    expect(r.body.exp - r.body.iat).toBeLessThanOrEqual(3600);
  });

  it('describes an active refresh token (no token_type: RFC 6749 §5.1 types access tokens only), ignoring token_type_hint', async () => {
    const { refresh } = await f.tokens();
    const r = await f.introspect(refresh, f.basic(), { token_type_hint: 'access_token' });
    expect(r.body).toMatchObject({ active: true, scope: 'hash:create hash:verify', client_id: f.clientId, sub: f.s.accountId });
    expect(r.body.token_type).toBeUndefined();
    expect(r.body.exp - r.body.iat).toBeGreaterThanOrEqual(14 * 24 * 3600 - 1);
  });

  it('accepts client_secret_post as well as Basic', async () => {
    const { access } = await f.tokens();
    const r = await postForm(`${f.s.url}/oauth/introspect`, { token: access, client_id: f.clientId, client_secret: f.clientSecret });
    expect(r.body.active).toBe(true);
  });

  it('inactive: unknown, malformed, revoked, expired', async () => {
    expectInactive(await f.introspect('s224at_' + 'J'.repeat(43)));
    expectInactive(await f.introspect('s224rt_' + 'J'.repeat(43)));
    expectInactive(await f.introspect('not-a-token'));
    const revoked = await f.tokens();
    expect((await f.revoke(revoked.access)).status).toBe(200);
    expectInactive(await f.introspect(revoked.access));
    expectInactive(await f.introspect(revoked.refresh));
    const expired = await f.tokens();
    await f.db
      .updateTable('oauth_access_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('revoked_at', 'is', null)
      .execute();
    expectInactive(await f.introspect(expired.access));
    expect((await f.introspect(expired.refresh)).body.active).toBe(true);
  });

  it('a rotated-out refresh token is inactive, and asking about it revokes nothing (it is a read)', async () => {
    const { refresh } = await f.tokens();
    const rotated = await f.refresh(refresh);
    expect(rotated.status).toBe(200);
    expectInactive(await f.introspect(refresh));
    expect((await f.introspect(rotated.body.access_token)).body.active).toBe(true);
    expect((await f.refresh(rotated.body.refresh_token)).status).toBe(200);
  });

  it("never tells a client about another client's token, even of the same account", async () => {
    const other = await f.registerClient('Curious resource server');
    const { access, refresh } = await f.tokens();
    expectInactive(await f.introspect(access, f.basic(other.clientId, other.clientSecret)));
    expectInactive(await f.introspect(refresh, f.basic(other.clientId, other.clientSecret)));
    // The owner still sees it active, and the question revoked nothing.
    expect((await f.introspect(access)).body.active).toBe(true);
  });

  it('inactive once the account leaves the Enterprise plan, as the API refuses it', async () => {
    const own = await f.ownAccountTokens();
    expect((await f.introspect(own.access, own.auth)).body.active).toBe(true);
    await f.s.store.setPlan(own.accountId, 'pro');
    expectInactive(await f.introspect(own.access, own.auth));
  });

  describe('client authentication', () => {
    it('refuses a public client: its id proves nothing (401 invalid_client)', async () => {
      const pub = await registerOAuthClient(f.s.store, {
        accountId: f.s.accountId,
        name: 'Public',
        redirectUris: [REDIRECT],
        isPublic: true,
      });
      const r = await postForm(`${f.s.url}/oauth/introspect`, { token: 's224at_' + 'K'.repeat(43), client_id: pub.clientId });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    });

    it('refuses a wrong secret (401 + challenge over Basic), no credentials, and Basic with client_secret in the body', async () => {
      const { access } = await f.tokens();
      const wrong = await f.introspect(access, f.basic(f.clientId, 's224cs_' + 'L'.repeat(43)));
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: 'invalid_client', error_description: 'Invalid client: client authentication failed' });
      expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="sha224d"');
      const none = await f.introspect(access, {});
      expect(none.status).toBe(401);
      expect(none.body.error).toBe('invalid_client');
      const both = await f.introspect(access, f.basic(), { client_id: f.clientId, client_secret: f.clientSecret });
      expect(both.status).toBe(400);
      expect(both.body.error).toBe('invalid_request');
      // Not one of those answers carried a token detail.
      for (const r of [wrong, none, both]) expect(Object.keys(r.body).sort()).toEqual(['error', 'error_description']);
    });

    it('refuses a request without a token, or with the token twice', async () => {
      const missing = await postForm(`${f.s.url}/oauth/introspect`, {}, f.basic());
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('invalid_request');
      const twice = await fetch(`${f.s.url}/oauth/introspect`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...f.basic() },
        body: 'token=a&token=b',
      });
      expect(twice.status).toBe(400);
      expect(await twice.json()).toMatchObject({ error: 'invalid_request' });
    });
  });

  it('stores no client secret, code or token in clear (every row of every OAuth table)', async () => {
    await f.expectNoSecretsInClear(15);
  });
});
