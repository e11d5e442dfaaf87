/**
 * The whole flow driven by a standard client library, unmodified: oauth4webapi (panva), which
 * follows RFC 6749, 7636, 8414, 9207, 7009 and 7662 strictly — it form-urlencodes Basic
 * credentials (`s224c%5F…`), checks the discovered issuer and the `iss` of the authorization
 * response, and refuses plain HTTP. So the service runs over HTTPS here (the test-only certificate
 * of test/net/fixtures), and the library is given, through its documented `customFetch` option, a
 * fetch that trusts that certificate — what any deployment with a private CA does.
 *
 * The library has no part in the resource owner's consent (there is no browser page yet: the owner
 * consents with an API key, docs/auth.md), so the test plays the user: it opens the authorization
 * URL the library's values built, with the key, and hands the redirect back to the library.
 */
import { readFileSync } from 'node:fs';
import * as oauth from 'oauth4webapi';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { ABC, REDIRECT } from './oauth-fixture.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`../net/fixtures/${name}`, import.meta.url));
const tls = { cert: fixture('test-only-cert.pem'), key: fixture('test-only-key.pem') };
const dispatcher = new Agent({ connect: { ca: tls.cert } });
/**
 * Node 20's global fetch takes no CA; undici's, with a dispatcher that trusts the test certificate,
 * does. Its Response is the WHATWG one oauth4webapi checks for.
 */
function tlsFetch(url: string, init: object = {}): Promise<Response> {
  return undiciFetch(url, { ...init, dispatcher }) as unknown as Promise<Response>;
}
const options = { [oauth.customFetch]: tlsFetch };

type ClientAuthFactory = (secret: string) => oauth.ClientAuth;

describe.each<[string, ClientAuthFactory, 'oauth2' | 'oidc']>([
  ['client_secret_basic', oauth.ClientSecretBasic, 'oauth2'],
  ['client_secret_post', oauth.ClientSecretPost, 'oidc'],
])('oauth4webapi %s (discovery algorithm %s): discovery → code + PKCE → token → API → refresh → revoke', (_method, auth, algorithm) => {
  let s: TestServer;
  let client: oauth.Client;
  let clientAuth: oauth.ClientAuth;

  beforeAll(async () => {
    s = await startTestServer({ tls });
    const registered = await registerOAuthClient(s.store, {
      accountId: s.accountId,
      name: 'oauth4webapi',
      redirectUris: [REDIRECT],
    });
    client = { client_id: registered.clientId };
    clientAuth = auth(registered.clientSecret!);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The resource owner's part: consent with the account's production key, then the redirect the browser would follow. */
  async function consent(as: oauth.AuthorizationServer, params: Record<string, string>): Promise<URL> {
    const url = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const res = await tlsFetch(url.href, { headers: { 'x-api-key': s.keys.production }, redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  const callApi = (accessToken: string) =>
    oauth.protectedResourceRequest(
      accessToken,
      'POST',
      new URL(`${s.url}/v2/hash`),
      new Headers({ 'content-type': 'application/json' }),
      JSON.stringify({ data: 'abc' }),
      options,
    );

  it('runs the whole flow', async () => {
    const issuer = new URL(s.url);
    expect(issuer.protocol).toBe('https:');
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm, ...options }));
    expect(as.issuer).toBe(s.url);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);

    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await consent(as, {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'hash:create usage:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    // Checks state and, as the metadata promises it (RFC 9207), the issuer.
    const params = oauth.validateAuthResponse(as, client, callback, state);

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT, codeVerifier, options),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'hash:create usage:read', expires_in: expect.any(Number) });
    expect(tokens.access_token).toMatch(/^s224at_/);
    expect(tokens.refresh_token).toMatch(/^s224rt_/);

    const api = await callApi(tokens.access_token);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { hash: string }).hash).toBe(ABC);

    // The resource server's view of the token (RFC 7662).
    const introspected = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, tokens.access_token, options),
    );
    expect(introspected).toMatchObject({
      active: true,
      client_id: client.client_id,
      scope: 'hash:create usage:read',
      token_type: 'Bearer',
    });

    // A refresh asking for more is refused, and changes nothing…
    const wider = oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, {
      ...options,
      additionalParameters: { scope: 'hash:create hash:verify usage:read' },
    });
    const refusal = await oauth.processRefreshTokenResponse(as, client, await wider).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(oauth.ResponseBodyError);
    expect((refusal as oauth.ResponseBodyError).error).toBe('invalid_scope');

    // …so the same refresh token rotates.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, options),
    );
    expect(refreshed.refresh_token).toMatch(/^s224rt_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.scope).toBe('hash:create usage:read');
    expect((await callApi(refreshed.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, options));

    // Revoking the refresh token revoked the grant: both access tokens, and the refresh token.
    for (const token of [tokens.access_token, refreshed.access_token]) {
      const gone = await tlsFetch(`${s.url}/v2/hash`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data: 'abc' }),
      });
      expect(gone.status).toBe(401);
      const info = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, clientAuth, token, options),
      );
      expect(info).toEqual({ active: false });
    }
    const afterRevoke = await oauth
      .processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, options),
      )
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect((afterRevoke as oauth.ResponseBodyError).error).toBe('invalid_grant');
  });
});
