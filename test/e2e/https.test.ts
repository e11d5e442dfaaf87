/**
 * HTTPS only (docs/api.md "Overview": plain HTTP requests are redirected to HTTPS). The bundled server runs with a
 * self-signed certificate made for this test: its plain listener answers every request with a
 * 308 to the same path and query on HTTPS (GET and POST alike), built from the configured public
 * URL and never from Host; a request carrying a key over plain HTTP is refused as exposed; the
 * HTTPS listener serves the API with Strict-Transport-Security. Behind a trusted proxy,
 * X-Forwarded-Proto: http gets the 308 to PUBLIC_URL.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { SHA224_ABC } from '../helpers/digests.js';
import { pickUnusedPort } from '../helpers/ports.js';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function send(mod: typeof http | typeof https, url: string, options: https.RequestOptions, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = mod.request(url, options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTPS with an HTTP→HTTPS redirect listener (bundled server)', () => {
  let proc: SpawnedProcess;
  let dir: string;
  let httpsUrl: string;
  let plainUrl: string;
  let key: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-tls-'));
    const certFile = path.join(dir, 'c.pem');
    const keyFile = path.join(dir, 'k.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', keyFile, '-out', certFile],
      { stdio: 'ignore' },
    );
    const redirectPort = await pickUnusedPort(); // in advance: the server does not print the redirect listener's port
    proc = spawnEntry('embedded', {
      DATA_DIR: path.join(dir, 'data'),
      PORT: '0',
      TLS_CERT: certFile,
      TLS_KEY: keyFile,
      HTTP_REDIRECT_PORT: String(redirectPort),
    });
    httpsUrl = (await proc.waitFor(/listening on (https:\/\/\S+)/))[1]!;
    key = (await proc.waitFor(/API key: (s224_\w+)/))[1]!;
    plainUrl = `http://127.0.0.1:${redirectPort}`;
  });
  afterAll(async () => {
    await proc.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['GET', 'POST'])('the plain listener answers %s with 308 to the HTTPS URL, keeping path and query', async (method) => {
    const r = await send(
      http,
      `${plainUrl}/v2/hash?x=1&y=two`,
      { method, headers: { 'content-type': 'application/json' } },
      method === 'POST' ? '{"data":"abc"}' : undefined,
    );
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe(`${httpsUrl}/v2/hash?x=1&y=two`);
  });

  it('redirects v1 paths too', async () => {
    const r = await send(http, `${plainUrl}/v1/usage?x=1`, { method: 'GET' });
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe(`${httpsUrl}/v1/usage?x=1`);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([['evil.example'], ['127.0.0.1@evil.example'], ['[::1]'], ['evil.example:444']])(
    'builds Location from the configured public URL, never from Host: %s',
    async (host) => {
      const r = await send(http, `${plainUrl}/v2/hash`, { method: 'GET', headers: { host } });
      expect(r.status).toBe(308);
      expect(r.headers.location).toBe(`${httpsUrl}/v2/hash`);
    },
  );

  it.each([
    ['/v1/usage?api_key=s224_whatever', {}, 'the api_key query parameter', 'query: api_key', true],
    ['/v2/hash', { 'x-api-key': 's224_whatever' }, 'the X-API-Key header', 'header: x-api-key', false],
    ['/v2/hash', { authorization: 'Bearer s224_whatever' }, 'the Authorization header', 'header: authorization', false],
  ] as const)(
    'refuses a credential sent over plain HTTP (%s) with 403 naming it exposed, and no Location',
    async (target, headers, where, details, v1) => {
      const r = await send(http, `${plainUrl}${target}`, { method: 'GET', headers });
      expect(r.status).toBe(403);
      expect(r.headers.location).toBeUndefined();
      expect(r.headers['cache-control']).toBe('no-store');
      const message = `The API key in ${where} was sent over plain HTTP and must be treated as exposed: revoke it, create a new one, and call this service over HTTPS`;
      expect(JSON.parse(r.body)).toEqual(
        v1
          ? { error: { code: 'CREDENTIAL_EXPOSED', message, details: { info: details } } }
          : { success: false, error: { code: 'CREDENTIAL_EXPOSED', message, details } },
      );
    },
  );

  it('serves /v2/hash and /v1/hash over HTTPS with Strict-Transport-Security', async () => {
    const options = { method: 'POST', rejectUnauthorized: false, headers: { 'x-api-key': key, 'content-type': 'application/json' } };
    const v2 = await send(https, `${httpsUrl}/v2/hash`, options, '{"data":"abc"}');
    expect(v2.status).toBe(200);
    expect(JSON.parse(v2.body).hash).toBe(SHA224_ABC);
    expect(v2.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const v1 = await send(
      https,
      `${httpsUrl}/v1/hash`,
      { ...options, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
      '{"data":"abc"}',
    );
    expect(v1.status).toBe(200);
    expect(JSON.parse(v1.body)).toMatchObject({ algorithm: 'sha224', hash: SHA224_ABC });
    expect(v1.headers['strict-transport-security']).toBeDefined();
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  let s: TestServer;
  let noPublicUrl: TestServer;
  beforeAll(async () => {
    [s, noPublicUrl] = await Promise.all([
      startTestServer({ env: { TRUST_PROXY: 'true', PUBLIC_URL: 'https://api.example.com' } }),
      startTestServer({ env: { TRUST_PROXY: 'true' } }),
    ]);
  });
  afterAll(() => Promise.all([s.close(), noPublicUrl.close()]));

  it.each(['GET', 'POST'])(
    'X-Forwarded-Proto: http gets a 308 to PUBLIC_URL for %s, whatever Host and X-Forwarded-Host say',
    async (method) => {
      const r = await send(
        http,
        `${s.url}/v1/hash?q=1`,
        {
          method,
          headers: {
            'x-forwarded-proto': 'http',
            host: 'evil.example',
            'x-forwarded-host': 'evil.example',
            'content-type': 'application/json',
          },
        },
        method === 'POST' ? '{"data":"abc"}' : undefined,
      );
      expect(r.status).toBe(308);
      expect(r.headers.location).toBe('https://api.example.com/v1/hash?q=1');
    },
  );

  it('X-Forwarded-Proto: http with a key is 403 CREDENTIAL_EXPOSED, not a redirect', async () => {
    const r = await send(http, `${s.url}/v2/hash`, {
      method: 'GET',
      headers: { 'x-forwarded-proto': 'http', 'x-api-key': s.keys.production },
    });
    expect(r.status).toBe(403);
    expect(r.headers.location).toBeUndefined();
    expect(JSON.parse(r.body).error.code).toBe('CREDENTIAL_EXPOSED');
  });

  it('without PUBLIC_URL, plain HTTP is refused (403) rather than redirected to a guessed host', async () => {
    const r = await send(http, `${noPublicUrl.url}/v2/hash`, {
      method: 'GET',
      headers: { 'x-forwarded-proto': 'http', host: 'evil.example' },
    });
    expect(r.status).toBe(403);
    expect(r.headers.location).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({
      success: false,
      error: { code: 'FORBIDDEN', message: 'This service is served over HTTPS only', details: 'use https' },
    });
  });

  it('X-Forwarded-Proto: https is served, with Strict-Transport-Security', async () => {
    const r = await send(
      http,
      `${s.url}/v1/hash`,
      {
        method: 'POST',
        headers: { 'x-forwarded-proto': 'https', authorization: `Bearer ${s.keys.production}`, 'content-type': 'application/json' },
      },
      '{"data":"abc"}',
    );
    expect(r.status).toBe(200);
    expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
