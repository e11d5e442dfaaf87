import { describe, expect, it } from 'vitest';
import { isHostAllowed, normalizeAllowedDomains } from '../../shared/keys/domains.js';
import { ServiceError } from '../../shared/errors.js';

describe('normalizeAllowedDomains', () => {
  it('trims, lowercases and de-duplicates', () => {
    expect(normalizeAllowedDomains([' App.Example.COM ', 'app.example.com', 'localhost', '*.Example.org'])).toEqual([
      'app.example.com',
      'localhost',
      '*.example.org',
    ]);
  });

  it.each([
    '',
    'https://app.example.com',
    'app.example.com:8080',
    'app.example.com/path',
    '*.com',
    '*',
    'a.*.example.com',
    '-bad.example.com',
    'bad-.example.com',
    'exa mple.com',
    'a..b',
    `${'a'.repeat(64)}.com`,
  ])('refuses %j with INVALID_INPUT naming the field', (domain) => {
    let err: unknown;
    try {
      normalizeAllowedDomains([domain]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('INVALID_INPUT');
    expect((err as ServiceError).details).toBe('field: allowedDomains');
  });

  it('refuses more than 50 entries', () => {
    const many = Array.from({ length: 51 }, (_, i) => `d${i}.example.com`);
    expect(() => normalizeAllowedDomains(many)).toThrow(/At most 50/);
  });
});

describe('isHostAllowed', () => {
  const allowed = ['app.example.com', '*.example.org'];
  it.each([
    ['app.example.com', true],
    ['APP.example.com', true],
    ['app.example.com.', true],
    ['example.com', false],
    ['evil-app.example.com', false],
    ['app.example.com.evil.net', false],
    ['a.example.org', true],
    ['a.b.example.org', true],
    ['example.org', false],
    ['badexample.org', false],
  ])('%s → %s', (host, expected) => {
    expect(isHostAllowed(allowed, host)).toBe(expected);
  });
});
