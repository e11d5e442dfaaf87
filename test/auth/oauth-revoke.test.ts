import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { expectUnauthorized, OAuthFixture, REDIRECT } from './oauth-fixture.js';
import { basic, postForm } from './oauth-helpers.js';

describe('POST /oauth/revoke (RFC 7009)', () => {
  const f = new OAuthFixture();
  beforeAll(() => f.start());
  afterAll(() => f.close());

  describe('revocation (RFC 7009)', () => {
    it('needs client authentication', async () => {
      const { access } = await f.tokens();
      const r = await f.revoke(access, basic(f.clientId, 's224cs_' + 'E'.repeat(43)));
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
      expect((await f.hash(access)).status).toBe(200);
    });

    it("answers 200 for an unknown token and for another client's token, revoking nothing", async () => {
      expect((await f.revoke('s224at_' + 'F'.repeat(43))).status).toBe(200);
      expect((await f.revoke('garbage')).status).toBe(200);
      const other = await registerOAuthClient(f.s.store, { accountId: f.s.accountId, name: 'Third app', redirectUris: [REDIRECT] });
      f.issued.push(other.clientSecret!);
      const { access } = await f.tokens();
      expect((await f.revoke(access, basic(other.clientId, other.clientSecret!))).status).toBe(200);
      expect((await f.hash(access)).status).toBe(200);
    });

    it('revoking an access token revokes its grant', async () => {
      const { access, refresh: rt } = await f.tokens();
      expect((await f.revoke(access)).status).toBe(200);
      expectUnauthorized(await f.hash(access));
      expect((await f.refresh(rt)).body.error).toBe('invalid_grant');
    });

    it('refuses a request without a token', async () => {
      const r = await postForm(`${f.s.url}/oauth/revoke`, {}, basic(f.clientId, f.clientSecret));
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
    });
  });

  describe("client authentication, the token endpoint's (RFC 6749 §2.3)", () => {
    it('decodes form-urlencoded Basic credentials (RFC 6749 §2.3.1)', async () => {
      const { access } = await f.tokens();
      const encoded = Buffer.from(`${f.clientId.replace('_', '%5F')}:${f.clientSecret.replace('_', '%5F')}`).toString('base64');
      expect((await f.revoke(access, { authorization: `Basic ${encoded}` })).status).toBe(200);
      expectUnauthorized(await f.hash(access));
    });

    it('refuses Basic and client_secret in the body at once (invalid_request), revoking nothing', async () => {
      const { access } = await f.tokens();
      const r = await postForm(
        `${f.s.url}/oauth/revoke`,
        { token: access, client_id: f.clientId, client_secret: f.clientSecret },
        f.basic(),
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect((await f.hash(access)).status).toBe(200);
    });

    it('accepts client_secret_post, and answers a wrong secret in the body 400 invalid_client', async () => {
      const { access } = await f.tokens();
      const wrong = await postForm(`${f.s.url}/oauth/revoke`, {
        token: access,
        client_id: f.clientId,
        client_secret: 's224cs_' + 'H'.repeat(43),
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('invalid_client');
      expect(wrong.headers.get('www-authenticate')).toBeNull();
      expect((await f.hash(access)).status).toBe(200);
      const ok = await postForm(`${f.s.url}/oauth/revoke`, { token: access, client_id: f.clientId, client_secret: f.clientSecret });
      expect(ok.status).toBe(200);
      expectUnauthorized(await f.hash(access));
    });

    it('answers no credentials 401 with a Basic challenge, and a JSON body 400 invalid_request', async () => {
      const none = await postForm(`${f.s.url}/oauth/revoke`, { token: 's224at_' + 'I'.repeat(43) });
      expect(none.status).toBe(401);
      expect(none.body.error).toBe('invalid_client');
      expect(none.headers.get('www-authenticate')).toBe('Basic realm="sha224d"');
      const json = await fetch(`${f.s.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...f.basic() },
        body: JSON.stringify({ token: 'x' }),
      });
      expect(json.status).toBe(400);
      expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    });
  });

  it('stores no client secret, code or token in clear (every row of every OAuth table)', async () => {
    await f.expectNoSecretsInClear(10);
  });
});
