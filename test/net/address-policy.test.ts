import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { checkAddress, embeddedIPv4, isAddressAllowed, parseAddress, type DeniedRange } from '../../shared/net/address-policy.js';

const denied: [string, DeniedRange][] = [
  // IPv4 special-purpose ranges (RFC 6890 and successors)
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.0.1', 'private'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'cloud-metadata'],
  ['168.63.129.16', 'cloud-metadata'],
  ['100.100.100.200', 'cloud-metadata'],
  ['192.0.0.8', 'ietf-protocol'],
  ['192.0.0.192', 'ietf-protocol'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.254', 'benchmarking'],
  ['192.88.99.1', 'deprecated'],
  ['192.31.196.1', 'anycast-service'],
  ['192.175.48.1', 'anycast-service'],
  ['192.52.193.1', 'anycast-service'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'scoped'],
  ['fec0::1', 'site-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['fd00:ec2::254', 'cloud-metadata'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['64:ff9b:1::a00:1', 'nat64-local'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001:2::1', 'ietf-protocol'],
  ['2001:10::1', 'ietf-protocol'],
  ['2620:4f:8000::1', 'anycast-service'],
  ['4000::1', 'not-global-unicast'],
  ['::2:1:1', 'not-global-unicast'],
  // Embedded IPv4, converted first (RFC 4291 §2.5.5, RFC 2765, RFC 6052, RFC 3056, RFC 4380)
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:192.168.0.1', 'private'],
  ['::ffff:169.254.169.254', 'cloud-metadata'],
  ['::127.0.0.1', 'loopback'],
  ['::a9fe:a9fe', 'cloud-metadata'],
  ['::ffff:0:7f00:1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a00:1', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:a9fe:a9fe::1', 'cloud-metadata'],
  ['2001:0:7f00:1::', 'loopback'], // Teredo server 127.0.0.1
  ['2001:0:808:808::80ff:fffe', 'loopback'], // Teredo client ~0x80fffffe = 127.0.0.1
  // Not addresses, or not in the strict spelling net.connect dials
  ['', 'invalid'],
  ['localhost', 'invalid'],
  ['0x7f.1', 'invalid'],
  ['2130706433', 'invalid'],
  ['0177.0.0.1', 'invalid'],
  ['[::1]', 'invalid'],
];

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255',
  '172.32.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808', // NAT64 of a public address
  '2002:808:808::1', // 6to4 of a public address
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // RFC 4380 §4 example: server 65.54.227.120, client 192.0.2.45...
];

describe('checkAddress', () => {
  it.each(denied)('denies %s as %s', (ip, rule) => {
    expect(checkAddress(ip)).toEqual({ allowed: false, rule });
  });

  it.each(allowed.filter((ip) => !ip.startsWith('2001:0:')))('allows public unicast %s', (ip) => {
    expect(checkAddress(ip)).toEqual({ allowed: true });
  });

  it('judges Teredo by both embedded addresses: the RFC 4380 example client is TEST-NET-1', () => {
    // Client 192.0.2.45 is documentation space, so the example address as a whole is denied.
    expect(checkAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual({ allowed: false, rule: 'documentation' });
    // Same server, public client 8.8.8.8 (inverted: f7f7:f7f7).
    expect(checkAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toEqual({ allowed: true });
  });

  it('allowLoopback permits exactly 127.0.0.1 and its IPv4-mapped spelling', () => {
    const opts = { allowLoopback: true };
    expect(isAddressAllowed('127.0.0.1', opts)).toBe(true);
    expect(isAddressAllowed('::ffff:127.0.0.1', opts)).toBe(true);
    expect(isAddressAllowed('::ffff:7f00:1', opts)).toBe(true);
    for (const ip of [
      '127.0.0.2',
      '127.1.0.1',
      '::1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '2001:0:7f00:1::',
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '169.254.169.254',
    ]) {
      expect(isAddressAllowed(ip, opts), ip).toBe(false);
    }
  });

  it('allowLoopback is off by default', () => {
    expect(checkAddress('127.0.0.1')).toEqual({ allowed: false, rule: 'loopback' });
    expect(checkAddress('127.0.0.1', {})).toEqual({ allowed: false, rule: 'loopback' });
    expect(checkAddress('127.0.0.1', { allowLoopback: false })).toEqual({ allowed: false, rule: 'loopback' });
  });

  const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));

  it('gives every IPv6 embedding the verdict of the IPv4 address it carries', () => {
    fc.assert(
      fc.property(ipv4, (v4) => {
        const expected = checkAddress(v4).allowed;
        const hex = ipaddr.IPv4.parse(v4).toIPv4MappedAddress().toNormalizedString().split(':').slice(6).join(':');
        expect(checkAddress(`::ffff:${v4}`).allowed).toBe(expected);
        expect(checkAddress(`::ffff:0:${hex}`).allowed).toBe(expected);
        expect(checkAddress(`64:ff9b::${hex}`).allowed).toBe(expected);
        if (!v4.startsWith('0.')) expect(checkAddress(`::${hex}`).allowed).toBe(expected); // ::, ::1 are not IPv4-compatible
      }),
      { numRuns: 2000 },
    );
  });

  it('allows an IPv4 address only if ipaddr.js also calls it unicast', () => {
    fc.assert(
      fc.property(ipv4, (v4) => {
        if (checkAddress(v4).allowed) expect(ipaddr.parse(v4).range()).toBe('unicast');
      }),
      { numRuns: 5000 },
    );
  });
});

describe('embeddedIPv4', () => {
  const v6 = (s: string): ipaddr.IPv6 => parseAddress(s) as ipaddr.IPv6;
  const show = (s: string): string[] => embeddedIPv4(v6(s)).map(({ v4, via }) => `${via} ${v4.toString()}`);

  it('decodes each embedding', () => {
    expect(show('::ffff:1.2.3.4')).toEqual(['mapped 1.2.3.4']);
    expect(show('::1.2.3.4')).toEqual(['compatible 1.2.3.4']);
    expect(show('::ffff:0:1.2.3.4')).toEqual(['translated 1.2.3.4']);
    expect(show('64:ff9b::1.2.3.4')).toEqual(['nat64 1.2.3.4']);
    expect(show('2002:102:304::1')).toEqual(['6to4 1.2.3.4']);
    // RFC 4380 §4 worked example.
    expect(show('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual(['teredo-server 65.54.227.120', 'teredo-client 192.0.2.45']);
  });

  it('reads ::a.b.c.d as IPv4-compatible, not as IPv4-mapped as ipaddr.parse does', () => {
    expect(ipaddr.parse('::1.2.3.4').toNormalizedString()).toBe('0:0:0:0:0:ffff:102:304'); // the quirk
    expect(parseAddress('::1.2.3.4').toNormalizedString()).toBe('0:0:0:0:0:0:102:304');
    expect(parseAddress('::ffff:1.2.3.4').toNormalizedString()).toBe('0:0:0:0:0:ffff:102:304');
    expect(parseAddress('fe80::1.2.3.4%eth0').toString()).toBe('fe80::102:304%eth0');
  });

  it('leaves ::, ::1 and plain addresses alone', () => {
    expect(show('::')).toEqual([]);
    expect(show('::1')).toEqual([]);
    expect(show('2606:4700:4700::1111')).toEqual([]);
    expect(show('fe80::1')).toEqual([]);
  });
});
