import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyType } from '../../shared/store/types.js';
import { OAuthFixture, REDIRECT, type CodeOptions } from './oauth-fixture.js';
import { authorize, pkcePair } from './oauth-helpers.js';

describe('GET|POST /oauth/authorize: authorization code requests (RFC 6749 §4.1.1, RFC 7636)', () => {
  const f = new OAuthFixture();
  beforeAll(() => f.start());
  afterAll(() => f.close());

  it('POST /oauth/authorize works like GET', async () => {
    const { access } = await f.tokens({ method: 'POST' });
    expect((await f.hash(access)).status).toBe(200);
  });

  describe('the authorization endpoint', () => {
    it('refuses an unregistered redirect_uri without redirecting to it', async () => {
      const r = await authorize(f.s.url, f.authorizeParams({ redirectUri: 'https://evil.example.net/cb' }, pkcePair().challenge), {
        'x-api-key': f.s.keys.production,
      });
      expect(r.status).toBe(400);
      expect(r.location).toBeUndefined();
      expect(r.body).toMatchObject({ error: 'invalid_client' });
      expect(r.body.error_description).toMatch(/redirect_uri/);
    });

    it('refuses an unknown client without redirecting', async () => {
      const r = await authorize(f.s.url, f.authorizeParams({ client: 's224c_' + 'A'.repeat(43) }, pkcePair().challenge), {
        'x-api-key': f.s.keys.production,
      });
      expect(r.status).toBe(400);
      expect(r.location).toBeUndefined();
      expect(r.body.error).toBe('invalid_client');
    });

    it.each<[string, Record<string, string> | KeyType, number]>([
      ['a malformed API key', { 'x-api-key': 'nope' }, 401],
      ['a read-only key', 'read_only', 403],
      ['a development key', 'development', 403],
    ])('refuses a resource owner with %s (JSON, no redirect)', async (_name, headers, status) => {
      const h = typeof headers === 'string' ? { 'x-api-key': f.s.keys[headers] } : headers;
      const r = await authorize(f.s.url, f.authorizeParams({}, pkcePair().challenge), h);
      expect(r.status).toBe(status);
      expect(r.location).toBeUndefined();
      expect(r.body.error).toBe('access_denied');
    });

    it('without an API key or a session sends the browser to sign in, returning to the same request', async () => {
      const params = f.authorizeParams({}, pkcePair().challenge);
      const r = await authorize(f.s.url, params);
      expect(r.status).toBe(303);
      expect(r.location!.origin + r.location!.pathname).toBe(`${f.s.url}/dashboard/sign-in`);
      const back = new URL(r.location!.searchParams.get('returnTo')!, f.s.url);
      expect(back.pathname).toBe('/oauth/authorize');
      expect(Object.fromEntries(back.searchParams)).toEqual(params);
    });

    it('refuses a non-Enterprise account', async () => {
      const { secret } = await f.s.newKey({ plan: 'pro' });
      const r = await authorize(f.s.url, f.authorizeParams({}, pkcePair().challenge), { 'x-api-key': secret });
      expect(r.status).toBe(403);
      expect(r.body.error).toBe('access_denied');
    });

    async function expectErrorRedirect(o: CodeOptions, challenge: string | undefined, error: string, key = f.s.keys.production) {
      const params = f.authorizeParams(o, challenge ?? '');
      if (challenge === undefined) {
        delete params.code_challenge;
        delete params.code_challenge_method;
      }
      const r = await authorize(f.s.url, params, { 'x-api-key': key });
      expect(r.status).toBe(302);
      expect(`${r.location!.origin}${r.location!.pathname}`).toBe(o.redirectUri ?? REDIRECT);
      expect(r.location!.searchParams.get('error')).toBe(error);
      expect(r.location!.searchParams.get('code')).toBeNull();
      return r;
    }

    it("redirects access_denied for another Enterprise account's key", async () => {
      const { secret } = await f.s.newKey({ plan: 'enterprise' });
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
      const params = f.authorizeParams({}, pkcePair().challenge);
      delete params.state;
      const r = await authorize(f.s.url, params, { 'x-api-key': f.s.keys.production });
      expect(r.location!.searchParams.get('error')).toBe('invalid_request');
    });

    it('refuses a repeated parameter', async () => {
      const { challenge } = pkcePair();
      const query = new URLSearchParams(f.authorizeParams({}, challenge));
      query.append('scope', 'jobs:read');
      const res = await fetch(`${f.s.url}/oauth/authorize?${query}`, { headers: { 'x-api-key': f.s.keys.production }, redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    });
  });

  describe('RFC 9207: the issuer in every authorization response', () => {
    it('a successful redirect carries iss, the issuer the metadata names', async () => {
      const { challenge } = pkcePair();
      const r = await authorize(f.s.url, f.authorizeParams({}, challenge), { 'x-api-key': f.s.keys.production });
      expect(r.status).toBe(302);
      expect(r.location!.searchParams.get('iss')).toBe(f.s.url);
      expect(r.location!.searchParams.get('code')).toMatch(/^s224ac_/);
      f.issued.push(r.location!.searchParams.get('code')!);
      const metadata = (await (await fetch(`${f.s.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
      expect(metadata.issuer).toBe(f.s.url);
      // Everything else of the redirect is as the library wrote it, iss last.
      expect([...r.location!.searchParams.keys()]).toEqual(['code', 'state', 'iss']);
      expect(`${r.location!.origin}${r.location!.pathname}`).toBe(REDIRECT);
    });

    it('an error redirect carries iss too; an error answered without a redirect has none to carry', async () => {
      const denied = await authorize(f.s.url, f.authorizeParams({ extra: { allowed: 'false' } }, pkcePair().challenge), {
        'x-api-key': f.s.keys.production,
      });
      expect(denied.location!.searchParams.get('error')).toBe('access_denied');
      expect(denied.location!.searchParams.get('iss')).toBe(f.s.url);
      const noKey = await authorize(f.s.url, f.authorizeParams({}, pkcePair().challenge), { 'x-api-key': 'nope' });
      expect(noKey.status).toBe(401);
      expect(noKey.location).toBeUndefined();
    });

    it('names the host the client reached', async () => {
      const port = new URL(f.s.url).port;
      const viaLocalhost = await authorize(`http://localhost:${port}`, f.authorizeParams({}, pkcePair().challenge), {
        'x-api-key': f.s.keys.production,
      });
      expect(viaLocalhost.location!.searchParams.get('iss')).toBe(`http://localhost:${port}`);
      f.issued.push(viaLocalhost.location!.searchParams.get('code')!);
    });
  });

  it('stores no client secret, code or token in clear (every row of every OAuth table)', async () => {
    await f.expectNoSecretsInClear(5);
  });
});
