import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEARER_MESSAGES } from '../../shared/auth/jwt.js';
import { getJson } from '../helpers/api-server.js';
import { expectUnauthorized, OAuthFixture } from './oauth-fixture.js';

describe('OAuth access tokens on the API (docs/api.md "Authentication" rule 8, RFC 6750)', () => {
  const f = new OAuthFixture();
  beforeAll(() => f.start());
  afterAll(() => f.close());

  it('scopes are permissions: hash:verify alone → 403 on /v2/hash, 200 on /v2/verify', async () => {
    const { access } = await f.tokens({ scope: 'hash:verify' });
    const denied = await f.hash(access);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    expect((await f.verify(access)).body.valid).toBe(true);
  });

  it("the 403 talks about the token's scope, naming the scope it lacks (not an API key's permission)", async () => {
    const { access } = await f.tokens({ scope: 'hash:verify' });
    const denied = await f.hash(access);
    expect(denied.body.error).toEqual({
      code: 'FORBIDDEN',
      message: "Access token's scope does not allow this request",
      details: "the token's scope lacks hash:create",
    });
    // v1 reads usage with the usage:read scope; its envelope carries the same words.
    const usage = await getJson(`${f.s.url}/v1/usage`, { authorization: `Bearer ${access}` });
    expect(usage.status).toBe(403);
    expect(usage.body.error).toEqual({
      code: 'FORBIDDEN',
      message: "Access token's scope does not allow this request",
      details: { info: "the token's scope lacks usage:read" },
    });
  });

  describe('access tokens on the API', () => {
    it('an expired access token → 401 EXPIRED_KEY', async () => {
      const { access } = await f.tokens();
      await f.db
        .updateTable('oauth_access_tokens')
        .set({ expires_at: Date.now() - 1 })
        .where('revoked_at', 'is', null)
        .execute();
      const r = await f.hash(access);
      expect(r.status).toBe(401);
      expect(r.body.error).toEqual({ code: 'EXPIRED_KEY', message: BEARER_MESSAGES.expired, details: '' });
    });

    it('an unknown access token → 401 UNAUTHORIZED', async () => {
      expectUnauthorized(await f.hash('s224at_' + 'C'.repeat(43)));
    });

    it('stops working when the account leaves the Enterprise plan; refresh is refused too', async () => {
      const own = await f.ownAccountTokens();
      expect((await f.hash(own.access)).status).toBe(200);
      await f.s.store.setPlan(own.accountId, 'pro');
      const r = await f.hash(own.access);
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', message: BEARER_MESSAGES.notEnterprise });
      expect((await f.refresh(own.refresh, own.auth)).body.error).toBe('invalid_grant');
    });
  });

  it('stores no client secret, code or token in clear (every row of every OAuth table)', async () => {
    await f.expectNoSecretsInClear(8);
  });
});
