/** IP allow-lists: strict parsing, canonical forms, IPv4/IPv6/IPv4-mapped matching, the plan rule. */
import { describe, expect, it } from 'vitest';
import {
  assertAllowListPlan,
  compileAllowList,
  isAddressAllowed,
  MAX_ALLOWLIST_ENTRIES,
  normalizeAllowList,
  parseClientAddress,
} from '../../shared/keys/ip-allowlist.js';
import { ServiceError } from '../../shared/errors.js';

describe('normalizeAllowList', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['203.0.113.7/32', '203.0.113.7'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    [' 198.51.100.0/24 ', '198.51.100.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8::1/128', '2001:db8::1'],
    ['2001:db8:abcd::1/32', '2001:db8::/32'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    ['::ffff:c000:0201', '192.0.2.1'],
    ['::1', '::1'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeAllowList([input])).toEqual([expected]);
  });

  it.each([
    '127.1',
    '0x7f.0.0.1',
    '010.0.0.1',
    '1.2.3.4/33',
    '::1/129',
    '1.2.3.4/',
    '1.2.3.4/8/8',
    'fe80::1%eth0',
    'example.com',
    '',
    '1.2.3.4/ 8',
    '1.2.3.4/-1',
  ])('refuses %j naming its index', (bad) => {
    try {
      normalizeAllowList(['192.0.2.1', bad]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).code).toBe('INVALID_INPUT');
      expect((err as ServiceError).details).toBe('field: allowedIps[1]');
      expect((err as ServiceError).message).toContain('is not an IP address or CIDR range');
    }
  });

  it('drops duplicates after canonicalising, keeps order, bounds the length, refuses non-strings', () => {
    expect(normalizeAllowList(['10.0.0.1/8', '192.0.2.1', '10.0.0.0/8', '::ffff:192.0.2.1'])).toEqual(['10.0.0.0/8', '192.0.2.1']);
    expect(normalizeAllowList([])).toEqual([]);
    expect(() => normalizeAllowList(Array.from({ length: MAX_ALLOWLIST_ENTRIES + 1 }, (_, i) => `10.0.0.${i % 250}`))).toThrow(
      'At most 100',
    );
    expect(() => normalizeAllowList([42])).toThrow(ServiceError);
  });
});

describe('matching', () => {
  const list = compileAllowList(normalizeAllowList(['198.51.100.0/24', '203.0.113.7', '2001:db8::/32', '127.0.0.1']));
  it.each([
    ['198.51.100.1', true],
    ['198.51.100.255', true],
    ['198.51.101.0', false],
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    ['::ffff:198.51.100.9', true], // a dual-stack socket's form of an IPv4 client
    ['::ffff:203.0.113.8', false],
    ['2001:db8:1::5', true],
    ['2001:db9::5', false],
    ['127.0.0.1', true],
    ['::ffff:127.0.0.1', true],
    ['127.0.0.2', false],
    ['::1', false],
    ['fe80::1%eth0', false],
    ['not an address', false],
    [undefined, false],
  ])('%s → %s', (address, allowed) => {
    expect(list.allows(address)).toBe(allowed);
  });

  it('an empty list allows everything, even an unknown address', () => {
    expect(compileAllowList([]).allows(undefined)).toBe(true);
    expect(compileAllowList([]).allows('203.0.113.1')).toBe(true);
  });

  it('an IPv4 range never matches an IPv6 address and the reverse (except through the mapped form)', () => {
    expect(compileAllowList(['0.0.0.0/0']).allows('2001:db8::1')).toBe(false);
    expect(compileAllowList(['::/0']).allows('192.0.2.1')).toBe(false);
    expect(compileAllowList(['0.0.0.0/0']).allows('::ffff:192.0.2.1')).toBe(true);
  });

  it('needs both the key list and the account list to allow', () => {
    expect(isAddressAllowed('192.0.2.1', ['192.0.2.0/24'], ['192.0.2.1'])).toBe(true);
    expect(isAddressAllowed('192.0.2.2', ['192.0.2.0/24'], ['192.0.2.1'])).toBe(false);
    expect(isAddressAllowed('192.0.2.2', [], ['192.0.2.0/24'])).toBe(true);
    expect(isAddressAllowed('192.0.2.2', ['10.0.0.0/8'], [])).toBe(false);
    expect(isAddressAllowed('192.0.2.2', [], [])).toBe(true);
  });

  it('reads client addresses as allow-lists do', () => {
    expect(parseClientAddress('::ffff:10.1.2.3')?.toString()).toBe('10.1.2.3');
    expect(parseClientAddress('fe80::1%lo')?.toString()).toBe('fe80::1');
    expect(parseClientAddress('127.1')).toBeUndefined();
  });
});

describe('plan rule (docs/api.md "Authentication" rule 6)', () => {
  it('lets Pro and Enterprise set lists, and every plan clear one', () => {
    expect(() => assertAllowListPlan('pro', ['192.0.2.1'])).not.toThrow();
    expect(() => assertAllowListPlan('enterprise', ['192.0.2.1'])).not.toThrow();
    expect(() => assertAllowListPlan('free', [])).not.toThrow();
  });
  it.each(['free', 'basic'] as const)('refuses %s with a message that says which plans have it', (plan) => {
    try {
      assertAllowListPlan(plan, ['192.0.2.1']);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({
        code: 'FORBIDDEN',
        message: 'IP allow-listing is available on the Pro and Enterprise plans',
        details: `plan: ${plan}`,
      });
    }
  });
});
