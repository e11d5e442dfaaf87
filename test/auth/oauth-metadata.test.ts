import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_CLAIMS } from '../../shared/auth/principal.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { OAuthFixture } from './oauth-fixture.js';

/** GET with headers fetch may not set (Host), over a raw request. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('Authorization server metadata (RFC 8414)', () => {
  const f = new OAuthFixture();
  beforeAll(() => f.start());
  afterAll(() => f.close());

  const expected = (issuer: string) => ({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    scopes_supported: ['hash:create', 'hash:verify', 'usage:read', 'jobs:read'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
  });

  it.each(['oauth-authorization-server', 'openid-configuration'])(
    '/.well-known/%s: the whole document, public, cacheable, readable from any origin',
    async (name) => {
      const res = await fetch(`${f.s.url}/.well-known/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(res.headers.get('vary')).toMatch(/Host/);
      expect(await res.json()).toEqual(expected(f.s.url));
    },
  );

  it('scopes_supported are exactly the token permission names', async () => {
    const body = (await (await fetch(`${f.s.url}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[] };
    expect(body.scopes_supported.sort()).toEqual(Object.values(PERMISSION_CLAIMS).sort());
  });

  it('every advertised endpoint exists and speaks the OAuth envelope', async () => {
    const doc = expected(f.s.url);
    for (const url of [doc.token_endpoint, doc.revocation_endpoint, doc.introspection_endpoint]) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    }
    const authorize = await fetch(`${doc.authorization_endpoint}?response_type=code`, { redirect: 'manual' });
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('the issuer is the origin the client reached; X-Forwarded-* count only from a trusted proxy', async () => {
    const port = new URL(f.s.url).port;
    const viaName = await rawGet(`${f.s.url}/.well-known/oauth-authorization-server`, { host: `LocalHost:${port}` });
    expect(viaName.body.issuer).toBe(`http://localhost:${port}`);
    expect(viaName.body.token_endpoint).toBe(`http://localhost:${port}/oauth/token`);
    const spoofed = await rawGet(`${f.s.url}/.well-known/oauth-authorization-server`, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(spoofed.body.issuer).toBe(f.s.url);
  });

  it.each(['evil.example/path', 'user@evil.example', 'a b', 'evil.example?x=1', 'evil.example#x', 'a,b'])(
    'refuses the Host %j (400 invalid_request)',
    async (host) => {
      const r = await rawGet(`${f.s.url}/.well-known/oauth-authorization-server`, { host });
      expect(r.status).toBe(400);
      if (r.body !== undefined) expect(r.body.error).toBe('invalid_request');
    },
  );

  it('an unknown well-known name is 404', async () => {
    expect((await fetch(`${f.s.url}/.well-known/webfinger`)).status).toBe(404);
  });

  describe('behind a trusted proxy (TRUST_PROXY)', () => {
    let proxied: TestServer;
    beforeAll(async () => {
      proxied = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
    });
    afterAll(() => proxied?.close());

    it("names the proxy's public origin", async () => {
      const r = await rawGet(`${proxied.url}/.well-known/oauth-authorization-server`, {
        'x-forwarded-host': 'hash.example.com',
        'x-forwarded-proto': 'https',
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(expected('https://hash.example.com'));
    });
  });

  describe('with PUBLIC_URL set', () => {
    let configured: TestServer;
    beforeAll(async () => {
      configured = await startTestServer({ env: { PUBLIC_URL: 'https://hash.example.com:8443' } });
    });
    afterAll(() => configured?.close());

    it('names PUBLIC_URL whatever Host the request carried, and does not vary with it', async () => {
      const port = new URL(configured.url).port;
      for (const host of [`127.0.0.1:${port}`, `LocalHost:${port}`, 'evil.example/path']) {
        for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
          const r = await rawGet(`${configured.url}${path}`, { host });
          expect(r.status, `${host} ${path}`).toBe(200);
          expect(r.body).toEqual(expected('https://hash.example.com:8443'));
        }
      }
      const res = await fetch(`${configured.url}/.well-known/oauth-authorization-server`);
      expect(res.headers.get('vary')).toBeNull();
    });
  });
});
