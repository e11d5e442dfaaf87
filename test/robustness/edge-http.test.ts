/**
 * What every response says about itself: parser refusals in the JSON envelope, one file part per
 * upload with UTF-8 names, rate-limit headers for every identified caller, nosniff everywhere,
 * no-store on authentication failures and account data, and Origin compared as a serialised
 * origin. In process, on the embedded app (SQLite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { exchange, head } from './raw-client.js';
import { sha224Hex } from '../helpers/digests.js';

function v2Error(code: string, message: string, details: string) {
  return { success: false, error: { code, message, details } };
}
function v1Error(code: string, message: string, info: string) {
  return { error: { code, message, details: { info } } };
}

describe('the edge of the HTTP API', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startTestServer();
    port = Number(new URL(s.url).port);
  });
  afterAll(() => s.close());

  const v2 = () => ({ 'x-api-key': s.keys.production });
  const v1 = () => ({ authorization: `Bearer ${s.keys.production}` });

  describe('requests refused by the HTTP parser answer in the envelope', () => {
    it.each([
      [
        'bad header bytes',
        'GET /v2/hash HTTP/1.1\r\nHost: x\r\nBa\x01d: 1\r\n\r\n',
        400,
        v2Error('INVALID_INPUT', 'Malformed HTTP request', 'parser: HPE_INVALID_HEADER_TOKEN'),
      ],
      [
        'Content-Length with Transfer-Encoding',
        'POST /v1/hash HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n',
        400,
        v1Error(
          'INVALID_INPUT',
          'Content-Length and Transfer-Encoding together, or an invalid Transfer-Encoding',
          'header: transfer-encoding',
        ),
      ],
      [
        'a 20 KB header',
        `GET /v2/hash HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        v2Error('HEADERS_TOO_LARGE', 'Request headers are too large', 'the request line and headers exceed the server limit'),
      ],
      [
        'random bytes',
        '\x16\x03\x01\x00\xa5garbage\r\n\r\n',
        400,
        v2Error('INVALID_INPUT', 'Malformed HTTP request', 'parser: HPE_INVALID_METHOD'),
      ],
    ])('%s', async (_name, raw, status, body) => {
      const x = await exchange(port, { head: raw });
      expect(x.responses).toHaveLength(1);
      const r = x.responses[0]!;
      expect(r.status).toBe(status);
      expect(r.json).toEqual(body);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(x.serverClosed).toBe(true);
    });
  });

  describe('multipart uploads', () => {
    function form(parts: Array<[string, string, string?]>): FormData {
      const f = new FormData();
      for (const [name, value, filename] of parts) {
        if (filename === undefined) f.append(name, value);
        else f.append(name, new Blob([value]), filename);
      }
      return f;
    }

    it.each([
      ['/v2/file', 'v2'],
      ['/v1/file/hash', 'v1'],
      ['/v1/hash/file', 'v1'],
      ['/v1/verify/file', 'v1'],
    ] as const)('%s refuses a second file part with 400 naming the field, and keeps nothing', async (path, gen) => {
      const fields: Array<[string, string, string?]> = path === '/v1/verify/file' ? [['hash', sha224Hex('abc')]] : [];
      const res = await fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: gen === 'v2' ? v2() : v1(),
        body: form([...fields, ['file', 'abc', 'a.txt'], ['file', 'def', 'b.txt']]),
      });
      expect(res.status).toBe(400);
      const message = 'multipart field "file" must hold exactly one file; a second one was sent';
      expect(await res.json()).toEqual(
        gen === 'v2' ? v2Error('INVALID_INPUT', message, 'field: file') : v1Error('INVALID_INPUT', message, 'field: file'),
      );
    });

    it.each([
      ['/v2/file', 'filename'],
      ['/v1/file/hash', 'fileName'],
      ['/v1/hash/file', 'filename'],
      ['/v1/verify/file', 'filename'],
    ] as const)('%s returns a UTF-8 filename as sent (RFC 7578 §4.2)', async (path, field) => {
      const fields: Array<[string, string, string?]> = path === '/v1/verify/file' ? [['hash', sha224Hex('abc')]] : [];
      const res = await fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: path.startsWith('/v2') ? v2() : v1(),
        body: form([...fields, ['file', 'abc', 'résumé-日本.txt']]),
      });
      expect(res.status).toBe(200);
      expect((await res.json())[field]).toBe('résumé-日本.txt');
    });
  });

  describe('rate-limit headers', () => {
    const hasLimits = (h: Headers) => ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].every((n) => h.get(n) !== null);

    it.each([
      ['404 (unknown path)', 'GET', '/v2/nothing-here', 404, 'v2'],
      ['404 (unknown v1 path)', 'GET', '/v1/nothing-here', 404, 'v1'],
      ['405', 'GET', '/v2/hash', 405, 'v2'],
      ['400', 'POST', '/v2/hash', 400, 'v2'],
      ['404 (unknown job)', 'GET', '/v2/jobs/00000000-0000-0000-0000-000000000000', 404, 'v2'],
    ] as const)('on every response to an identified caller: %s', async (_name, method, path, status, gen) => {
      const res = await fetch(`${s.url}${path}`, {
        method,
        headers: { ...(gen === 'v2' ? v2() : v1()), 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(res.status).toBe(status);
      expect(hasLimits(res.headers)).toBe(true);
    });

    it('on a 403 (the key lacks the permission)', async () => {
      const res = await fetch(`${s.url}/v2/hash`, { method: 'POST', headers: { 'x-api-key': s.keys.read_only }, body: '{"data":"abc"}' });
      expect(res.status).toBe(403);
      expect(hasLimits(res.headers)).toBe(true);
    });

    it('not on a 401: an anonymous or unidentified caller has no account window (docs/limits.md)', async () => {
      for (const headers of [{}, { 'x-api-key': 's224_not-a-key' }] as Array<Record<string, string>>) {
        const res = await fetch(`${s.url}/v2/hash`, { method: 'POST', headers, body: '{"data":"abc"}' });
        expect(res.status).toBe(401);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
    });
  });

  describe('caching and sniffing', () => {
    it.each([
      ['GET', '/healthz', {}],
      ['GET', '/openapi.json', {}],
      ['GET', '/nowhere', {}],
      ['POST', '/v2/hash', {}],
      ['GET', '/v1/usage', { authorization: 'Bearer s224_wrong' }],
    ] as const)('X-Content-Type-Options: nosniff on %s %s', async (method, path, headers) => {
      const res = await fetch(`${s.url}${path}`, { method, headers });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('Cache-Control: no-store on authentication failures and on account data', async () => {
      const unauthorized = await fetch(`${s.url}/v1/usage`);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('cache-control')).toBe('no-store');
      for (const path of ['/v1/usage', '/v1/status']) {
        const res = await fetch(`${s.url}${path}`, { headers: v1() });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      const hash = await fetch(`${s.url}/v2/hash`, { method: 'POST', headers: v2(), body: '{"data":"abc"}' });
      expect(hash.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('Origin, for client keys', () => {
    const post = (origin: string) =>
      fetch(`${s.url}/v2/hash`, { method: 'POST', headers: { 'x-api-key': s.keys.client, origin }, body: '{"data":"abc"}' });

    it('the canonical serialised origin is accepted and echoed', async () => {
      const res = await post('https://app.example.com');
      expect(res.status).toBe(200);
      expect((await res.json()).hash).toBe(sha224Hex('abc'));
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      const port = await post('http://app.example.com:8443');
      expect(port.headers.get('access-control-allow-origin')).toBe('http://app.example.com:8443');
    });

    it.each([
      ['https://APP.example.com', 'https://app.example.com'],
      ['HTTPS://App.Example.COM', 'https://app.example.com'],
      ['https://app.example.com:443', 'https://app.example.com'],
      ['http://app.example.com:80', 'http://app.example.com'],
      ['HTTP://APP.EXAMPLE.COM:8443', 'http://app.example.com:8443'],
    ])('%s is the same origin as a browser serialises it (%s): accepted, and that form echoed', async (origin, serialised) => {
      const res = await post(origin);
      expect(res.status).toBe(200);
      expect((await res.json()).hash).toBe(sha224Hex('abc'));
      expect(res.headers.get('access-control-allow-origin')).toBe(serialised);
      const preflight = await fetch(`${s.url}/v2/hash`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(serialised);
    });

    it.each([
      'https://app.example.com\\@evil.com',
      'https://app%2eexample.com',
      'https://user@app.example.com',
      'https://app.example.com/',
      'https://app.example.com:0443',
      'ftp://app.example.com',
      'https://app.example.com.evil.net',
      'null',
      'app.example.com',
    ])('a non-canonical or foreign form is refused (403) and never echoed: %s', async (origin) => {
      const res = await post(origin);
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(`${s.url}/v2/hash`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

describe('nosniff beyond Express: WebSocket refusals and socket.io polling', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ realtime: {} });
  });
  afterAll(() => s.close());

  it('a refused upgrade (in the v2 envelope, malformed handshakes too) and an engine.io polling response carry it', async () => {
    const upgrade = await exchange(Number(new URL(s.url).port), {
      head: head('GET', '/v2/nowhere', {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': 13,
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      }),
    });
    expect(upgrade.responses[0]?.status).toBe(404);
    expect(upgrade.responses[0]?.headers['x-content-type-options']).toBe('nosniff');
    const port = Number(new URL(s.url).port);
    const ws = (method: string, headers: Record<string, string | number>) =>
      exchange(port, {
        head: head(method, `/v2/ws?api_key=${s.keys.production}`, { Connection: 'Upgrade', Upgrade: 'websocket', ...headers }),
      });
    const noKey = await ws('GET', { 'Sec-WebSocket-Version': 13 });
    expect(noKey.responses[0]?.status).toBe(400);
    expect(noKey.responses[0]?.json).toEqual({
      success: false,
      error: { code: 'INVALID_INPUT', message: 'Missing or invalid Sec-WebSocket-Key header', details: 'header: sec-websocket-key' },
    });
    const post = await ws('POST', { 'Sec-WebSocket-Version': 13, 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' });
    expect(post.responses[0]?.status).toBe(405);
    expect((post.responses[0]?.json as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
    const polling = await fetch(`${s.url}/socket.io/?EIO=4&transport=polling`);
    expect(polling.headers.get('x-content-type-options')).toBe('nosniff');
    await polling.arrayBuffer();
  });
});
