/**
 * POST /v1/hash/url: a `url` job on the workers, body capped at the plan's v1 size,
 * content_length = bytes hashed, and the SSRF policy — in embedded mode (SQLite and PostgreSQL) and on a cluster of real
 * API and worker processes (BullMQ), which must give the same answers in the same time: a final
 * error such as an upstream 404 is never retried. Only loopback origins are ever used: the servers
 * allow exactly 127.0.0.1 with URL_FETCH_ALLOW_LOOPBACK=true; a server with the default setting
 * proves loopback is refused.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JobExecutor } from '../../api/jobs/executor.js';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { startTarget, TARGETS, type Target, type TargetName } from '../helpers/targets.js';
import { sha224Hex } from '../helpers/digests.js';
import { listenOnFreePort } from '../helpers/ports.js';

const MiB = 1024 * 1024;
const body = randomBytes(100_000);
const big = Buffer.alloc(5 * MiB + 1, 7);

/** The loopback origin every test fetches from. */
let origin: http.Server;
let base: string;

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    switch (req.url) {
      case '/file.bin':
        res.end(body);
        break;
      case '/moved':
        res.writeHead(302, { location: '/file.bin' }).end();
        break;
      case '/big':
        res.end(big);
        break;
      case '/exact':
        res.end(big.subarray(0, 5 * MiB));
        break;
      case '/slow':
        setTimeout(() => res.end('late'), 3000).unref();
        break;
      default:
        res.writeHead(404).end('not here');
    }
  });
  base = `http://127.0.0.1:${await listenOnFreePort(origin)}`;
});
afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
});

/** How long each mode took to answer an upstream 404, compared at the end. */
const notFoundMs = new Map<TargetName, number>();

describe.each(TARGETS)('POST /v1/hash/url on %s', (target) => {
  let s: Target;
  let h: Record<string, string>;

  beforeAll(async () => {
    s = await startTarget(target, { URL_FETCH_ALLOW_LOOPBACK: 'true' });
    h = { authorization: `Bearer ${s.keys.production}` };
  });
  afterAll(() => s.close());

  it('hashes the body: hash = node:crypto, content_length = bytes, url echoed', async () => {
    const r = await postJson(`${s.url}/v1/hash/url`, { url: `${base}/file.bin` }, h);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ hash: sha224Hex(body), url: `${base}/file.bin`, content_length: body.length, timestamp: r.body.timestamp });
  });

  it('follows a redirect, echoing the URL supplied', async () => {
    const r = await postJson(`${s.url}/v1/hash/url`, { url: `${base}/moved`, timeout: 5 }, h);
    expect(r.body).toMatchObject({ hash: sha224Hex(body), url: `${base}/moved`, content_length: body.length });
  });

  it("caps the body at the plan's v1 size: 5 MiB passes, 5 MiB + 1 is 413 FILE_TOO_LARGE (free plan)", async () => {
    const fh = { authorization: `Bearer ${await s.newKey({ plan: 'free' })}` };
    const exact = await postJson(`${s.url}/v1/hash/url`, { url: `${base}/exact` }, fh);
    expect(exact.body).toMatchObject({ hash: sha224Hex(big.subarray(0, 5 * MiB)), content_length: 5 * MiB });
    const over = await postJson(`${s.url}/v1/hash/url`, { url: `${base}/big` }, fh);
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe('FILE_TOO_LARGE');
  });

  it('gives up after `timeout` seconds', async () => {
    const started = Date.now();
    const r = await postJson(`${s.url}/v1/hash/url`, { url: `${base}/slow`, timeout: 0.5 }, h);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({
      error: { code: 'URL_FETCH_FAILED', message: 'Fetching the URL failed', details: { info: 'timed out after 500 ms' } },
    });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('answers an upstream 404 with 502 URL_FETCH_FAILED at once: a final error, never retried', async () => {
    const started = Date.now();
    const r = await postJson(`${s.url}/v1/hash/url`, { url: `${base}/missing` }, h);
    notFoundMs.set(target, Date.now() - started);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({
      error: { code: 'URL_FETCH_FAILED', message: 'Fetching the URL failed', details: { info: 'upstream status 404' } },
    });
  });

  it.each([
    [{}, 'The url parameter is required', 'url'],
    [{ url: 'not a url' }, 'url must be an absolute http or https URL', 'url'],
    [{ url: `http://127.0.0.1/${'a'.repeat(2048)}` }, 'url must be at most 2048 characters', 'url'],
    [{ url: 'http://127.0.0.1/', timeout: 61 }, 'timeout must be greater than 0 and at most 60 seconds', 'timeout'],
    [{ url: 'http://127.0.0.1/', timeout: 0 }, 'timeout must be greater than 0 and at most 60 seconds', 'timeout'],
    [{ url: 'http://127.0.0.1/', timeout: '5' }, 'timeout must be a number of seconds', 'timeout'],
  ])('refuses %j with 400 INVALID_INPUT', async (req, message, field) => {
    const r = await postJson(`${s.url}/v1/hash/url`, req, h);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'INVALID_INPUT', message, details: { info: `field: ${field}` } } });
  });

  it('refuses other schemes with 400 URL_NOT_ALLOWED', async () => {
    const r = await postJson(`${s.url}/v1/hash/url`, { url: 'file:///etc/passwd' }, h);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'URL_NOT_ALLOWED', message: 'URL is not allowed', details: { info: 'rule: scheme' } } });
  });

  it('refuses client keys (public by design) with 403, before any fetch', async () => {
    const r = await postJson(
      `${s.url}/v1/hash/url`,
      { url: `${base}/file.bin` },
      { authorization: `Bearer ${s.keys.client}`, origin: 'https://app.example.com' },
    );
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'API key lacks permission for this request',
        details: { info: 'client keys may not hash URLs; use a secret key from a server' },
      },
    });
  });
});

describe('embedded and distributed mode answer an upstream 404 alike', () => {
  it('in the same time, within 1 s of each other', () => {
    const [embedded, distributed] = [notFoundMs.get('sqlite'), notFoundMs.get('cluster')];
    expect(embedded).toBeDefined();
    expect(distributed).toBeDefined();
    // Retried with backoff, the distributed answer took ~15 s (or hit JOB_TIMEOUT).
    expect(Math.abs(embedded! - distributed!)).toBeLessThan(1000);
  });
});

describe('POST /v1/hash/url in process', () => {
  let s: TestServer;
  let strict: TestServer;
  beforeAll(async () => {
    [s, strict] = await Promise.all([startTestServer({ env: { URL_FETCH_ALLOW_LOOPBACK: 'true' } }), startTestServer()]);
  });
  afterAll(() => Promise.all([s.close(), strict.close()]));

  it('runs as a `url` job on the queue (never inline) with the timeout and the plan cap', async () => {
    const run = vi.spyOn(JobExecutor.prototype, 'run');
    try {
      await postJson(`${s.url}/v1/hash/url`, { url: `${base}/file.bin`, timeout: 2.5 }, { authorization: `Bearer ${s.keys.production}` });
      const calls = run.mock.calls.filter(([kind]) => kind === 'url');
      expect(calls).toHaveLength(1);
      const [, payload, principal, inputBytes] = calls[0]!;
      expect(payload).toEqual({ url: `${base}/file.bin`, timeoutMs: 2500, maxBytes: 100 * MiB });
      expect(principal.accountId).toBe(s.accountId);
      // No input size: the executor only computes inline when given one (and never for `url`).
      expect(inputBytes).toBeUndefined();
    } finally {
      run.mockRestore();
    }
  });

  it('with the default policy, refuses loopback (400 URL_NOT_ALLOWED), by address and by name', async () => {
    const k = { authorization: `Bearer ${strict.keys.production}` };
    const literal = await postJson(`${strict.url}/v1/hash/url`, { url: `${base}/file.bin` }, k);
    expect(literal.status).toBe(400);
    expect(literal.body).toEqual({
      error: { code: 'URL_NOT_ALLOWED', message: 'URL is not allowed', details: { info: 'rule: address:loopback' } },
    });
    // A name is only resolved on the worker, which checks every address it would dial.
    const named = await postJson(`${strict.url}/v1/hash/url`, { url: base.replace('127.0.0.1', 'localhost') + '/file.bin' }, k);
    expect(named.status).toBe(400);
    expect(named.body.error.code).toBe('URL_NOT_ALLOWED');
  });
});
