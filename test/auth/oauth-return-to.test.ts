/**
 * A URL the service builds never carries a credential: /oauth/authorize reached without a session
 * sends the browser to sign in with a `returnTo` that keeps the OAuth request but drops `api_key`,
 * `access_token` and the like (shared/auth/url-credentials.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthFixture } from './oauth-fixture.js';
import { pkcePair } from './oauth-helpers.js';

const f = new OAuthFixture();
beforeAll(() => f.start());
afterAll(() => f.close());

describe('the sign-in redirect of /oauth/authorize', () => {
  it('keeps the OAuth parameters in returnTo and drops every credential parameter', async () => {
    const oauth = f.authorizeParams({ scope: 'hash:create' }, pkcePair().challenge);
    const credentials = {
      api_key: f.s.keys.production,
      access_token: 's224at_secret',
      Refresh_Token: 's224rt_secret',
      client_secret: 'hunter2',
      password: 'hunter2',
    };
    for (const method of ['GET', 'POST'] as const) {
      const query = new URLSearchParams({ ...oauth, ...credentials }).toString();
      const res =
        method === 'GET'
          ? await fetch(`${f.s.url}/oauth/authorize?${query}`, { redirect: 'manual' })
          : await fetch(`${f.s.url}/oauth/authorize`, {
              method: 'POST',
              headers: { origin: f.s.url, 'content-type': 'application/x-www-form-urlencoded' },
              body: query,
              redirect: 'manual',
            });
      expect(res.status, method).toBe(303);
      const location = res.headers.get('location')!;
      expect(location.startsWith('/dashboard/sign-in?returnTo='), location).toBe(true);
      const back = new URL(new URL(location, f.s.url).searchParams.get('returnTo')!, f.s.url);
      expect(back.pathname).toBe('/oauth/authorize');
      expect(Object.fromEntries(back.searchParams)).toEqual(oauth);
      for (const secret of Object.values(credentials)) expect(location).not.toContain(encodeURIComponent(secret));
    }
  });
});
