import { describe, expect, it, vi } from 'vitest';
import { fetchAndHash, type FetchHashOptions } from '../../shared/net/fetch-and-hash.js';
import { URL_TIMEOUT_DEFAULT_MS, URL_TIMEOUT_MAX_MS, resolveTimeoutMs } from '../../shared/net/url-timeout.js';
import { BODY, expectServiceError, fakeLookup, startServer, useNetFixture } from './helpers.js';
import { SHA224_EMPTY, sha224Bytes } from '../helpers/digests.js';

const MAX = 1_000_000;
const base: FetchHashOptions = { timeoutMs: 5_000, maxBytes: MAX };
const loopbackOn: FetchHashOptions = { ...base, allowLoopback: true };

const net = useNetFixture();

const o = (): string => net.fx.origin.origin();
const port = (): number => net.fx.origin.port;

describe('loopback allowance', () => {
  it('is off by default: the test server on 127.0.0.1 is refused and never contacted', async () => {
    const err = await expectServiceError(fetchAndHash(`${o()}/ok`, base), 'URL_NOT_ALLOWED', 'URL is not allowed');
    expect(err.status).toBe(400);
    expect(err.details).toBe('rule: address:loopback');
    expect(net.fx.requests()).toEqual([]);
    expect(net.tripwire.dials).toEqual([]);
  });

  it('when set, fetches 127.0.0.1 and hashes exactly the served bytes', async () => {
    const result = await fetchAndHash(`${o()}/ok`, loopbackOn);
    expect(result.digest).toEqual(sha224Bytes(BODY));
    expect(result.digest).toHaveLength(28);
    expect(result.size).toBe(BODY.length);
    expect(result.status).toBe(200);
    expect(result.finalUrl).toBe(`${o()}/ok`);
    expect(net.fx.requests()).toEqual(['127.0.0.1 /ok']);
    expect(net.tripwire.dials).toEqual(['127.0.0.1']);
  });

  it('hashes a chunked body and an empty body', async () => {
    const chunked = await fetchAndHash(`${o()}/chunked`, loopbackOn);
    expect(chunked.digest).toEqual(sha224Bytes(BODY));
    expect(chunked.size).toBe(BODY.length);
    const empty = await fetchAndHash(`${o()}/empty`, loopbackOn);
    expect(empty.digest.toString('hex')).toBe(SHA224_EMPTY);
    expect(empty.size).toBe(0);
  });
});

describe('bypass classes, loopback allowance off', () => {
  const urls = (): string[] => [
    `http://2130706433:${port()}/ok`,
    `http://0177.0.0.1:${port()}/ok`,
    `http://017700000001:${port()}/ok`,
    `http://0x7f000001:${port()}/ok`,
    `http://0x7f.0.0.1:${port()}/ok`,
    `http://0x7f.1:${port()}/ok`,
    `http://127.1:${port()}/ok`,
    `http://[::1]:${net.fx.v6?.port ?? port()}/ok`,
    `http://[::ffff:127.0.0.1]:${port()}/ok`,
    `http://[::ffff:7f00:1]:${port()}/ok`,
    `http://0.0.0.0:${port()}/ok`, // Linux dials 0.0.0.0 as this host: it would reach the origin server
    `http://0:${port()}/ok`,
    `http://[::]:${port()}/ok`,
    `http://localhost:${port()}/ok`, // the system resolver's loopback name
  ];

  it('refuses every spelling of loopback before dialing', async () => {
    for (const url of urls()) {
      const err = await expectServiceError(fetchAndHash(url, base), 'URL_NOT_ALLOWED', 'URL is not allowed');
      expect(err.details, url).toMatch(/^rule: address:(loopback|unspecified)$/);
    }
    expect(net.fx.requests()).toEqual([]);
    expect(net.tripwire.dials).toEqual([]);
  });

  it.each([
    ['private.test', '10.0.0.1', 'private'],
    ['home.test', '192.168.1.1', 'private'],
    ['metadata.test', '169.254.169.254', 'cloud-metadata'],
    ['cgnat.test', '100.64.0.1', 'cgnat'],
    ['linklocal.test', 'fe80::1', 'link-local'],
    ['mapped.test', '::ffff:192.168.0.1', 'private'],
    ['loopback.test', '127.0.0.1', 'loopback'],
    ['v6loopback.test', '::1', 'loopback'],
    ['zero.test', '0.0.0.0', 'unspecified'],
    ['ula.test', 'fd00:ec2::254', 'cloud-metadata'],
  ])('refuses a name (%s) whose DNS answer is %s, without connecting', async (name, address, rule) => {
    const lookup = fakeLookup({ [name]: address });
    const err = await expectServiceError(
      fetchAndHash(`http://${name}:${port()}/ok`, { ...base, lookup }),
      'URL_NOT_ALLOWED',
      'URL is not allowed',
    );
    expect(err.details).toBe(`rule: address:${rule}`);
    expect(err.details).not.toContain(address); // never echo a resolved address
    expect(lookup.calls).toContain(name); // the refusal came from the lookup hook
    expect(net.tripwire.dials).toEqual([]);
    expect(net.fx.requests()).toEqual([]);
  });

  it('refuses a name when any one of its answers is denied', async () => {
    const lookup = fakeLookup({ 'mixed.test': ['8.8.8.8', '10.0.0.1'] });
    const err = await expectServiceError(fetchAndHash('http://mixed.test/ok', { ...base, lookup }), 'URL_NOT_ALLOWED');
    expect(err.details).toBe('rule: address:private');
    expect(net.tripwire.dials).toEqual([]);
  });
});

describe('bypass classes, loopback allowance on (it admits 127.0.0.1 only)', () => {
  it('still refuses other loopback addresses, unspecified, and embedded forms', async () => {
    const p2 = net.fx.other.port;
    const p6 = net.fx.v6?.port ?? port();
    const lookup = fakeLookup({ 'other.test': '127.0.0.2', 'v6.test': '::1', 'mixed.test': ['127.0.0.1', '10.0.0.1'] });
    const cases = [
      `http://127.0.0.2:${p2}/ok`,
      `http://[::ffff:127.0.0.2]:${p2}/ok`,
      `http://[::1]:${p6}/ok`,
      `http://0.0.0.0:${port()}/ok`,
      `http://0:${port()}/ok`,
      `http://[::]:${port()}/ok`,
      `http://[::127.0.0.1]:${port()}/ok`,
      `http://[64:ff9b::7f00:1]:${port()}/ok`,
      `http://[2002:7f00:1::]:${port()}/ok`,
      `http://other.test:${p2}/ok`,
      `http://v6.test:${p6}/ok`,
      `http://mixed.test:${port()}/ok`,
    ];
    for (const url of cases) {
      await expectServiceError(fetchAndHash(url, { ...loopbackOn, lookup }), 'URL_NOT_ALLOWED', 'URL is not allowed');
    }
    expect(net.fx.requests()).toEqual([]);
    expect(net.tripwire.dials).toEqual([]);
  });

  it('admits 127.0.0.1 however the URL spells it', async () => {
    for (const url of [`http://2130706433:${port()}/ok`, `http://0x7f.1:${port()}/ok`, `http://[::ffff:127.0.0.1]:${port()}/ok`]) {
      const result = await fetchAndHash(url, loopbackOn);
      expect(result.digest).toEqual(sha224Bytes(BODY));
    }
  });

  it('refuses credentials in the URL before dialing', async () => {
    const err = await expectServiceError(fetchAndHash(`http://u:p@127.0.0.1:${port()}/ok`, loopbackOn), 'URL_NOT_ALLOWED');
    expect(err.details).toBe('rule: credentials');
    expect(net.fx.requests()).toEqual([]);
  });
});

describe('body limit', () => {
  it('accepts a body of exactly maxBytes, chunked or with a length', async () => {
    for (const path of ['/ok', '/chunked']) {
      const result = await fetchAndHash(`${o()}${path}`, { ...loopbackOn, maxBytes: BODY.length });
      expect(result.size).toBe(BODY.length);
    }
  });

  it('refuses one byte more while streaming (no Content-Length)', async () => {
    const err = await expectServiceError(
      fetchAndHash(`${o()}/chunked`, { ...loopbackOn, maxBytes: BODY.length - 1 }),
      'FILE_TOO_LARGE',
      'File exceeds the maximum size',
    );
    expect(err.status).toBe(413);
    expect(err.details).toBe(`maximum size is ${BODY.length - 1} bytes`);
  });

  it('refuses up front when Content-Length already exceeds the limit', async () => {
    await expectServiceError(fetchAndHash(`${o()}/declared/2000`, { ...loopbackOn, maxBytes: 1999 }), 'FILE_TOO_LARGE');
    const ok = await fetchAndHash(`${o()}/declared/2000`, { ...loopbackOn, maxBytes: 2000 });
    expect(ok.digest).toEqual(sha224Bytes(Buffer.alloc(2000, 0x62)));
  });

  it('stops an endless body at the limit and drops the connection', async () => {
    const started = Date.now();
    await expectServiceError(fetchAndHash(`${o()}/stream`, { ...loopbackOn, maxBytes: 200_000 }), 'FILE_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(3_000);
    // The server sees its response cut off: the socket was closed, not left to drain.
    await vi.waitFor(() => expect(net.fx.origin.abortedResponses).toEqual(['/stream']), { timeout: 2_000 });
  });
});

describe('failures', () => {
  it('times out a server that never answers, within the bound', async () => {
    const started = Date.now();
    const err = await expectServiceError(
      fetchAndHash(`${o()}/hang`, { ...loopbackOn, timeoutMs: 300 }),
      'URL_FETCH_FAILED',
      'Fetching the URL failed',
    );
    const elapsed = Date.now() - started;
    expect(err.status).toBe(502);
    expect(err.details).toBe('timed out after 300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('times out a body that stalls (the deadline covers the body too)', async () => {
    const started = Date.now();
    const err = await expectServiceError(fetchAndHash(`${o()}/trickle`, { ...loopbackOn, timeoutMs: 300 }), 'URL_FETCH_FAILED');
    expect(err.details).toBe('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a non-2xx final status', async () => {
    for (const status of [404, 500, 204 + 100]) {
      const err = await expectServiceError(
        fetchAndHash(`${o()}/status/${status}`, loopbackOn),
        'URL_FETCH_FAILED',
        'Fetching the URL failed',
      );
      expect(err.details).toBe(`upstream status ${status}`);
      expect(err.extra).toEqual({ upstream_status: status });
    }
  });

  it('reports a DNS failure', async () => {
    const err = await expectServiceError(fetchAndHash('http://nowhere.test/', { ...base, lookup: fakeLookup({}) }), 'URL_FETCH_FAILED');
    expect(err.details).toBe('DNS lookup failed');
  });

  it('reports a refused connection', async () => {
    const closed = await startServer('127.0.0.1', () => undefined);
    await closed.close();
    const err = await expectServiceError(fetchAndHash(`http://127.0.0.1:${closed.port}/`, loopbackOn), 'URL_FETCH_FAILED');
    expect(err.details).toBe('connection refused');
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await expectServiceError(fetchAndHash(`${o()}/hang`, { ...loopbackOn, signal: controller.signal }), 'URL_FETCH_FAILED');
    expect(err.details).toBe('aborted');
  });

  it('refuses an unparsable URL as INVALID_INPUT', async () => {
    const err = await expectServiceError(fetchAndHash('not a url', base), 'INVALID_INPUT', 'url must be an absolute http or https URL');
    expect(err.details).toBe('field: url');
  });

  it('rejects bad options as programming errors', async () => {
    await expect(fetchAndHash(`${o()}/ok`, { ...base, timeoutMs: 0 })).rejects.toThrow(RangeError);
    await expect(fetchAndHash(`${o()}/ok`, { ...base, timeoutMs: URL_TIMEOUT_MAX_MS + 1 })).rejects.toThrow(RangeError);
    await expect(fetchAndHash(`${o()}/ok`, { ...base, maxBytes: -1 })).rejects.toThrow(RangeError);
    await expect(fetchAndHash(`${o()}/ok`, { ...base, maxRedirects: 21 })).rejects.toThrow(RangeError);
  });

  it('sends no credentials or cookies and asks for the identity encoding', async () => {
    const seen: Record<string, unknown>[] = [];
    const server = await startServer('127.0.0.1', (req, res) => {
      seen.push({ ...req.headers });
      res.end('x');
    });
    try {
      await fetchAndHash(`${server.origin()}/`, loopbackOn);
    } finally {
      await server.close();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ 'accept-encoding': 'identity', 'user-agent': 'sha224d-url-hash' });
    expect(seen[0]).not.toHaveProperty('authorization');
    expect(seen[0]).not.toHaveProperty('cookie');
  });
});

describe('resolveTimeoutMs', () => {
  it('defaults to 10 s and converts seconds', () => {
    expect(resolveTimeoutMs(undefined)).toBe(URL_TIMEOUT_DEFAULT_MS);
    expect(URL_TIMEOUT_DEFAULT_MS).toBe(10_000);
    expect(resolveTimeoutMs(1)).toBe(1_000);
    expect(resolveTimeoutMs(0.5)).toBe(500);
    expect(resolveTimeoutMs(60)).toBe(URL_TIMEOUT_MAX_MS);
    expect(URL_TIMEOUT_MAX_MS).toBe(60_000);
  });

  it.each([0, -1, 60.001, 61, 3600, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s as INVALID_INPUT naming timeout', (value) => {
    let caught: unknown;
    try {
      resolveTimeoutMs(value);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      code: 'INVALID_INPUT',
      details: 'field: timeout',
      message: 'timeout must be greater than 0 and at most 60 seconds',
    });
  });
});
