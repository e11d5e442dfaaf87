import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { checkUrl, parseUrl } from '../../shared/net/url-policy.js';

function refusal(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  }
  throw new Error('expected a refusal');
}

const check = (input: string, allowLoopback = false): ReturnType<typeof checkUrl> => checkUrl(parseUrl(input), { allowLoopback });

describe('WHATWG URL normalises legacy IPv4 spellings before the policy sees them', () => {
  it.each([
    'http://2130706433/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://127.0.0.1./',
    'http://%31%32%37.0.0.1/',
    'http://１２７.０.０.１/', // full-width digits
  ])('%s → 127.0.0.1, refused as loopback', (input) => {
    expect(parseUrl(input).hostname).toBe('127.0.0.1');
    const err = refusal(() => check(input));
    expect(err.code).toBe('URL_NOT_ALLOWED');
    expect(err.status).toBe(400);
    expect(err.message).toBe('URL is not allowed');
    expect(err.details).toBe('rule: address:loopback');
  });

  it.each([
    ['http://0.0.0.0/', 'address:unspecified'],
    ['http://0/', 'address:unspecified'],
    ['http://[::]/', 'address:unspecified'],
    ['http://[::1]/', 'address:loopback'],
    ['http://[0:0:0:0:0:0:0:1]/', 'address:loopback'],
    ['http://[::ffff:127.0.0.1]/', 'address:loopback'],
    ['http://[::ffff:7f00:1]/', 'address:loopback'],
    ['http://[::127.0.0.1]/', 'address:loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'address:cloud-metadata'],
    ['http://0xa9.0xfe.0xa9.0xfe/', 'address:cloud-metadata'],
    ['http://[fd00:ec2::254]/', 'address:cloud-metadata'],
    ['http://10.1.2.3:8080/', 'address:private'],
    ['http://167772161/', 'address:private'], // 10.0.0.1 as one decimal number
    ['http://100.64.0.1/', 'address:cgnat'],
    ['http://[fe80::1]/', 'address:link-local'],
    ['http://[::ffff:192.168.0.1]/', 'address:private'],
    ['http://255.255.255.255/', 'address:broadcast'],
    ['http://224.0.0.1/', 'address:multicast'],
  ])('%s is refused (%s)', (input, rule) => {
    const err = refusal(() => check(input));
    expect(err.code).toBe('URL_NOT_ALLOWED');
    expect(err.details).toBe(`rule: ${rule}`);
  });
});

describe('checkUrl', () => {
  it.each([
    'file:///etc/passwd',
    'ftp://example.com/',
    'gopher://example.com:70/_x',
    'data:text/plain,hi',
    'javascript:alert(1)',
    'ws://example.com/',
    'dict://example.com:11211/',
  ])('refuses scheme %s', (input) => {
    const err = refusal(() => check(input));
    expect(err.code).toBe('URL_NOT_ALLOWED');
    expect(err.message).toBe('URL is not allowed');
    expect(err.details).toBe('rule: scheme');
  });

  it.each(['http://u:p@example.com/', 'http://user@example.com/', 'http://:secret@example.com/', 'https://u:p@8.8.8.8/'])(
    'refuses credentials in %s',
    (input) => {
      const err = refusal(() => check(input));
      expect(err.code).toBe('URL_NOT_ALLOWED');
      expect(err.details).toBe('rule: credentials');
      expect(err.message).not.toContain('secret');
    },
  );

  it('refuses port 0', () => {
    expect(refusal(() => check('http://example.com:0/')).details).toBe('rule: port');
  });

  it('names the redirect hop in details', () => {
    expect(refusal(() => checkUrl(new URL('file:///etc/passwd'), {}, 3)).details).toBe('rule: scheme (redirect 3)');
  });

  it('passes names through for the lookup hook to check, and classifies literal hosts', () => {
    expect(check('https://Example.COM./x?y#z')).toMatchObject({ host: 'example.com.', hostKind: 'name' });
    expect(check('http://localhost/')).toMatchObject({ host: 'localhost', hostKind: 'name' });
    expect(check('http://8.8.8.8/')).toMatchObject({ host: '8.8.8.8', hostKind: 'ipv4' });
    expect(check('http://[2606:4700:4700::1111]:8443/')).toMatchObject({ host: '2606:4700:4700::1111', hostKind: 'ipv6' });
  });

  it('allowLoopback admits 127.0.0.1 (however spelled) and nothing else', () => {
    expect(check('http://2130706433:8080/', true)).toMatchObject({ host: '127.0.0.1', hostKind: 'ipv4' });
    expect(check('http://[::ffff:127.0.0.1]/', true)).toMatchObject({ host: '::ffff:7f00:1', hostKind: 'ipv6' });
    for (const input of ['http://127.0.0.2/', 'http://[::1]/', 'http://0.0.0.0/', 'http://[::127.0.0.1]/', 'http://10.0.0.1/']) {
      expect(refusal(() => check(input, true)).code, input).toBe('URL_NOT_ALLOWED');
    }
  });
});

describe('parseUrl', () => {
  it.each(['', 'not a url', '/relative/path', 'http://', 'http://[::1/', 'http://1.2.3.4.5/', 'http://example.com:99999/'])(
    'refuses %j as INVALID_INPUT',
    (input) => {
      const err = refusal(() => parseUrl(input));
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.message).toBe('url must be an absolute http or https URL');
      expect(err.details).toBe('field: url');
    },
  );
});
