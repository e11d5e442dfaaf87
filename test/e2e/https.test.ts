/**
 * HTTPS only (SPEC: plain HTTP requests are redirected to HTTPS). The bundled server runs with a
 * self-signed certificate made for this test: its plain listener answers every request with a
 * 308 to the same path and query on HTTPS (GET and POST alike); the HTTPS listener serves the API
 * with Strict-Transport-Security. Behind a trusted proxy, X-Forwarded-Proto: http gets the 308.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';

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

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
    const redirectPort = await freePort();
    proc = spawnEntry('embedded', { DATA_DIR: path.join(dir, 'data'), PORT: '0', TLS_CERT: certFile, TLS_KEY: keyFile, HTTP_REDIRECT_PORT: String(redirectPort) });
    httpsUrl = (await proc.waitFor(/listening on (https:\/\/\S+)/))[1]!;
    key = (await proc.waitFor(/API key: (s224_\w+)/))[1]!;
    plainUrl = `http://127.0.0.1:${redirectPort}`;
  });
  afterAll(async () => {
    await proc.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['GET', 'POST'])('the plain listener answers %s with 308 to the HTTPS URL, keeping path and query', async (method) => {
    const r = await send(http, `${plainUrl}/v2/hash?x=1&y=two`, { method, headers: { 'content-type': 'application/json' } }, method === 'POST' ? '{"data":"abc"}' : undefined);
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe(`${httpsUrl}/v2/hash?x=1&y=two`);
  });

  it('redirects v1 paths too, without reading the key', async () => {
    const r = await send(http, `${plainUrl}/v1/usage?api_key=whatever`, { method: 'GET' });
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe(`${httpsUrl}/v1/usage?api_key=whatever`);
  });

  it('serves /v2/hash and /v1/hash over HTTPS with Strict-Transport-Security', async () => {
    const options = { method: 'POST', rejectUnauthorized: false, headers: { 'x-api-key': key, 'content-type': 'application/json' } };
    const v2 = await send(https, `${httpsUrl}/v2/hash`, options, '{"data":"abc"}');
    expect(v2.status).toBe(200);
    expect(JSON.parse(v2.body).hash).toBe('23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7');
    expect(v2.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const v1 = await send(https, `${httpsUrl}/v1/hash`, { ...options, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, '{"data":"abc"}');
    expect(v1.status).toBe(200);
    expect(JSON.parse(v1.body)).toMatchObject({ algorithm: 'sha224', hash: '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7' });
    expect(v1.headers['strict-transport-security']).toBeDefined();
  });
});

describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => s.close());

  it.each(['GET', 'POST'])('X-Forwarded-Proto: http gets a 308 to https for %s', async (method) => {
    const r = await send(http, `${s.url}/v1/hash?q=1`, { method, headers: { 'x-forwarded-proto': 'http', host: 'api.example.com', 'content-type': 'application/json' } }, method === 'POST' ? '{"data":"abc"}' : undefined);
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe('https://api.example.com/v1/hash?q=1');
  });

  it('X-Forwarded-Proto: https is served, with Strict-Transport-Security', async () => {
    const r = await send(
      http,
      `${s.url}/v1/hash`,
      { method: 'POST', headers: { 'x-forwarded-proto': 'https', authorization: `Bearer ${s.keys.production}`, 'content-type': 'application/json' } },
      '{"data":"abc"}',
    );
    expect(r.status).toBe(200);
    expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
