import { describe, expect, it } from 'vitest';
import { fetchAndHash, type FetchHashOptions } from '../../shared/net/fetch-and-hash.js';
import { BODY, expectServiceError, fakeLookup, useNetFixture } from './helpers.js';
import { sha224Bytes } from '../helpers/digests.js';

/**
 * Redirect hops are re-checked one by one. To show that meaningfully, the first hop must be
 * reachable and the refused hop must be a real loopback server that would answer if the check
 * were missing. Hence the shape of the loopback allowance: it admits exactly 127.0.0.1 (where
 * the origin server listens) while 127.0.0.2 and ::1 — loopback too, each with its own server —
 * stay denied. Every refusal below asserts that those servers received nothing and that no
 * socket dialed anything but the origin.
 */

const net = useNetFixture();

const lookup = fakeLookup({
  'other-loopback.test': '127.0.0.2',
  'v6-loopback.test': '::1',
  'metadata.test': '169.254.169.254',
  'intranet.test': '10.0.0.1',
});
const opts: FetchHashOptions = { timeoutMs: 5_000, maxBytes: 1_000_000, allowLoopback: true, lookup };
const o = (): string => net.fx.origin.origin();
const to = (target: string, status = 302): string => `${o()}/to?s=${status}&u=${encodeURIComponent(target)}`;

/** Only the origin was dialed, once, and only the origin was asked anything. */
function expectOnlyOriginContacted(requests: number): void {
  expect(net.tripwire.dials).toEqual(['127.0.0.1']);
  expect(net.fx.other.requests).toEqual([]);
  expect(net.fx.v6?.requests ?? []).toEqual([]);
  expect(net.fx.origin.requests).toHaveLength(requests);
}

describe('redirects that are followed', () => {
  it.each([301, 302, 303, 307, 308])('follows %i to a relative Location and hashes the final body', async (status) => {
    const result = await fetchAndHash(to('/ok', status), opts);
    expect(result.digest).toEqual(sha224Bytes(BODY));
    expect(result.size).toBe(BODY.length);
    expect(result.finalUrl).toBe(`${o()}/ok`);
    expect(result.status).toBe(200);
    expect(net.fx.origin.requests).toEqual([expect.stringMatching(/^\/to\?/), '/ok']);
  });

  it('follows exactly 5 hops by default', async () => {
    const result = await fetchAndHash(`${o()}/chain/5`, opts);
    expect(result.finalUrl).toBe(`${o()}/chain/0`);
    expect(result.digest).toEqual(sha224Bytes(BODY));
    expect(net.fx.origin.requests).toEqual(['/chain/5', '/chain/4', '/chain/3', '/chain/2', '/chain/1', '/chain/0']);
  });
});

describe('redirects that are refused', () => {
  it('refuses a 6th redirect as too many, without following it', async () => {
    const err = await expectServiceError(fetchAndHash(`${o()}/chain/6`, opts), 'URL_FETCH_FAILED', 'Fetching the URL failed');
    expect(err.details).toBe('too many redirects (more than 5)');
    expect(net.fx.origin.requests).toEqual(['/chain/6', '/chain/5', '/chain/4', '/chain/3', '/chain/2', '/chain/1']);
  });

  it('honours a smaller maxRedirects, including 0', async () => {
    const err = await expectServiceError(fetchAndHash(to('/ok'), { ...opts, maxRedirects: 0 }), 'URL_FETCH_FAILED');
    expect(err.details).toBe('too many redirects (more than 0)');
    expect(net.fx.origin.requests).toHaveLength(1);
  });

  it('fails a redirect without a Location', async () => {
    const err = await expectServiceError(fetchAndHash(`${o()}/nolocation`, opts), 'URL_FETCH_FAILED');
    expect(err.details).toBe('redirect 302 without a Location');
  });

  it('refuses a redirect to loopback: other 127/8 addresses, ::1, 0.0.0.0, and names for them', async () => {
    const p2 = net.fx.other.port;
    const p6 = net.fx.v6?.port ?? net.fx.origin.port;
    const targets = [
      `http://127.0.0.2:${p2}/ok`,
      `http://2130706434:${p2}/ok`, // 127.0.0.2 as one number
      `http://[::ffff:127.0.0.2]:${p2}/ok`,
      `http://[::1]:${p6}/ok`,
      `http://0.0.0.0:${net.fx.origin.port}/ok`, // would reach the origin server itself on Linux
      `http://other-loopback.test:${p2}/ok`,
      `http://v6-loopback.test:${p6}/ok`,
    ];
    for (const target of targets) {
      net.tripwire.reset();
      net.fx.reset();
      const err = await expectServiceError(fetchAndHash(to(target), opts), 'URL_NOT_ALLOWED', 'URL is not allowed');
      expect(err.details, target).toMatch(/^rule: address:(loopback|unspecified) \(redirect 1\)$/);
      expectOnlyOriginContacted(1);
    }
  });

  it('refuses a redirect to private and metadata addresses, literal or by name, without dialing', async () => {
    const targets: [string, string][] = [
      ['http://169.254.169.254/latest/meta-data/', 'cloud-metadata'],
      ['http://[fd00:ec2::254]/latest/meta-data/', 'cloud-metadata'],
      ['http://metadata.test/computeMetadata/v1/', 'cloud-metadata'],
      ['http://10.0.0.1/', 'private'],
      ['http://intranet.test/', 'private'],
      ['http://[::ffff:10.0.0.1]/', 'private'],
      ['http://100.64.0.1/', 'cgnat'],
      ['http://[fe80::1]/', 'link-local'],
    ];
    for (const [target, rule] of targets) {
      net.tripwire.reset();
      net.fx.reset();
      const err = await expectServiceError(fetchAndHash(to(target), opts), 'URL_NOT_ALLOWED');
      expect(err.details).toBe(`rule: address:${rule} (redirect 1)`);
      expectOnlyOriginContacted(1);
    }
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const targets = [
      'file:///etc/passwd',
      `ftp://127.0.0.1:${net.fx.origin.port}/`,
      `gopher://127.0.0.1:${net.fx.origin.port}/_GET%20/ok`,
      'data:text/plain,hi',
      'javascript:alert(1)',
      'ws://127.0.0.1/',
    ];
    for (const target of targets) {
      net.tripwire.reset();
      net.fx.reset();
      const err = await expectServiceError(fetchAndHash(to(target), opts), 'URL_NOT_ALLOWED', 'URL is not allowed');
      expect(err.details, target).toBe('rule: scheme (redirect 1)');
      expectOnlyOriginContacted(1);
    }
  });

  it('refuses a redirect carrying credentials', async () => {
    const err = await expectServiceError(fetchAndHash(to(`http://admin:pw@127.0.0.1:${net.fx.origin.port}/ok`), opts), 'URL_NOT_ALLOWED');
    expect(err.details).toBe('rule: credentials (redirect 1)');
    expectOnlyOriginContacted(1);
  });

  it('re-checks every hop, not just the first: a bad third hop is refused', async () => {
    const third = `http://127.0.0.2:${net.fx.other.port}/ok`;
    const second = to(third, 307);
    const err = await expectServiceError(fetchAndHash(to(to(second, 301), 308), opts), 'URL_NOT_ALLOWED');
    expect(err.details).toBe('rule: address:loopback (redirect 3)');
    expect(net.fx.origin.requests).toHaveLength(3);
    expect(net.fx.other.requests).toEqual([]);
  });
});
