import { isIP, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses the URL fetcher may dial (SSRF protection). Allow-list in spirit:
 * an address is allowed only when it is public unicast; every special-purpose range of the IANA
 * registries (RFC 6890 and successors) is denied, and IPv6 forms that carry an IPv4 address are
 * judged by that IPv4 address, so `::ffff:127.0.0.1` is no way round a 127/8 rule.
 *
 * Two independent sources must both agree an address is public: this module's own table (each
 * row names its RFC) and ipaddr.js's `range() === 'unicast'`. If the library later learns a range
 * this table lacks, the address is denied; the check fails closed.
 */

/** Why an address was refused. Public (goes into error details); never the address itself. */
export type DeniedRange =
  | 'invalid'
  | 'scoped'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'cloud-metadata'
  | 'ietf-protocol'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'anycast-service'
  | 'deprecated'
  | 'unique-local'
  | 'site-local'
  | 'discard'
  | 'nat64-local'
  | 'not-global-unicast';

export interface AddressPolicyOptions {
  /**
   * Test and development switch, off by default: permit exactly 127.0.0.1 (also when written
   * as IPv4-mapped `::ffff:127.0.0.1`, which dials the same socket). Deliberately narrower than
   * "loopback": the rest of 127/8 and `::1` stay denied, so a test can run its server on
   * 127.0.0.1 and still prove that a hop to another loopback address (127.0.0.2, ::1) is refused.
   */
  allowLoopback?: boolean;
  /**
   * Ranges (CIDR, or single addresses) an operator has vetted: an address inside one is allowed
   * whatever its range. Used by webhook delivery (WEBHOOK_ALLOW_CIDRS) to reach internal
   * receivers; the URL fetcher passes none.
   */
  allowCidrs?: readonly string[];
}

export type AddressVerdict = { allowed: true } | { allowed: false; rule: DeniedRange };

type Row = readonly [cidr: string, rule: DeniedRange];

/** Order matters: the first matching row names the rule, so the narrow rows come first. */
const IPV4_DENY: readonly Row[] = [
  ['169.254.169.254/32', 'cloud-metadata'], // AWS/GCP/Azure/OCI instance metadata (inside link-local)
  ['168.63.129.16/32', 'cloud-metadata'], // Azure WireServer: public-looking, reachable only from inside Azure
  ['100.100.100.200/32', 'cloud-metadata'], // Alibaba Cloud metadata (inside CGNAT)
  ['0.0.0.0/8', 'unspecified'], // "this network", RFC 791 / RFC 1122 §3.2.1.3; Linux dials 0.0.0.0 as a local address
  ['10.0.0.0/8', 'private'], // RFC 1918
  ['100.64.0.0/10', 'cgnat'], // shared address space, RFC 6598
  ['127.0.0.0/8', 'loopback'], // RFC 1122 §3.2.1.3
  ['169.254.0.0/16', 'link-local'], // RFC 3927
  ['172.16.0.0/12', 'private'], // RFC 1918
  ['192.0.0.0/24', 'ietf-protocol'], // IETF protocol assignments, RFC 6890 §2.2.2
  ['192.0.2.0/24', 'documentation'], // TEST-NET-1, RFC 5737
  ['192.31.196.0/24', 'anycast-service'], // AS112-v4, RFC 7535
  ['192.52.193.0/24', 'anycast-service'], // AMT, RFC 7450
  ['192.88.99.0/24', 'deprecated'], // 6to4 relay anycast, RFC 7526
  ['192.168.0.0/16', 'private'], // RFC 1918
  ['192.175.48.0/24', 'anycast-service'], // AS112 direct delegation, RFC 7534
  ['198.18.0.0/15', 'benchmarking'], // RFC 2544
  ['198.51.100.0/24', 'documentation'], // TEST-NET-2, RFC 5737
  ['203.0.113.0/24', 'documentation'], // TEST-NET-3, RFC 5737
  ['224.0.0.0/4', 'multicast'], // RFC 5771
  ['255.255.255.255/32', 'broadcast'], // limited broadcast, RFC 919 / RFC 8190
  ['240.0.0.0/4', 'reserved'], // RFC 1112 §4
];

/**
 * Applied to IPv6 addresses that are not `::`, `::1` or an embedded-IPv4 form. An address that
 * matches no row must still lie in 2000::/3 (global unicast, RFC 4291 §2.4; IANA IPv6 address
 * space registry), else it is 'not-global-unicast'.
 */
const IPV6_DENY: readonly Row[] = [
  ['fd00:ec2::254/128', 'cloud-metadata'], // AWS instance metadata over IPv6 (inside unique-local)
  ['fe80::/10', 'link-local'], // RFC 4291 §2.5.6
  ['fec0::/10', 'site-local'], // deprecated by RFC 3879
  ['fc00::/7', 'unique-local'], // RFC 4193
  ['ff00::/8', 'multicast'], // RFC 4291 §2.7
  ['100::/64', 'discard'], // RFC 6666
  ['64:ff9b:1::/48', 'nat64-local'], // local-use NAT64, RFC 8215: prefix length unknown, so not decoded
  ['2001:db8::/32', 'documentation'], // RFC 3849
  ['3fff::/20', 'documentation'], // RFC 9637
  ['2001::/23', 'ietf-protocol'], // RFC 2928 / RFC 6890 §2.2.3 (benchmarking, AMT, ORCHID...); Teredo is decoded first
  ['2620:4f:8000::/48', 'anycast-service'], // AS112-v6, RFC 7534
];

export type Parsed = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Parsed, number];

function compile(rows: readonly Row[]): readonly (readonly [Cidr, DeniedRange])[] {
  return rows.map(([cidr, rule]) => [ipaddr.parseCIDR(cidr), rule] as const);
}

const IPV4_TABLE = compile(IPV4_DENY);
const IPV6_TABLE = compile(IPV6_DENY);
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const LOOPBACK_ALLOWANCE = '127.0.0.1';

/** How an IPv4 address was carried inside an IPv6 one. */
export type Embedding = 'mapped' | 'compatible' | 'translated' | 'nat64' | '6to4' | 'teredo-server' | 'teredo-client';

function v4FromWords(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address carries, converted before any rule is applied. Empty for a
 * plain IPv6 address. `::` and `::1` are not decoded (they are the IPv6 unspecified and loopback
 * addresses, not IPv4-compatible 0.0.0.0 / 0.0.0.1).
 */
export function embeddedIPv4(addr: ipaddr.IPv6): { v4: ipaddr.IPv4; via: Embedding }[] {
  const p = addr.parts;
  const w = (i: number): number => p[i] ?? 0;
  const zeros = (from: number, to: number): boolean => p.slice(from, to).every((x) => x === 0);
  const tail = (): ipaddr.IPv4 => v4FromWords(w(6), w(7));

  // IPv4-mapped ::ffff:0:0/96, RFC 4291 §2.5.5.2.
  if (zeros(0, 5) && w(5) === 0xffff) return [{ v4: tail(), via: 'mapped' }];
  // IPv4-compatible ::/96 (deprecated), RFC 4291 §2.5.5.1. Excludes :: and ::1.
  if (zeros(0, 6) && !(w(6) === 0 && w(7) <= 1)) return [{ v4: tail(), via: 'compatible' }];
  // IPv4-translated ::ffff:0:0:0/96, RFC 2765 §2.1 (ipaddr.js "rfc6145").
  if (zeros(0, 4) && w(4) === 0xffff && w(5) === 0) return [{ v4: tail(), via: 'translated' }];
  // NAT64 well-known prefix 64:ff9b::/96, RFC 6052 §2.1.
  if (w(0) === 0x64 && w(1) === 0xff9b && zeros(2, 6)) return [{ v4: tail(), via: 'nat64' }];
  // 6to4 2002::/16, RFC 3056 §2: bits 16..47 are the site's IPv4 address.
  if (w(0) === 0x2002) return [{ v4: v4FromWords(w(1), w(2)), via: '6to4' }];
  // Teredo 2001::/32, RFC 4380 §4: server IPv4 in bits 32..63, client IPv4 inverted in bits 96..127.
  if (w(0) === 0x2001 && w(1) === 0) {
    return [
      { v4: v4FromWords(w(2), w(3)), via: 'teredo-server' },
      { v4: v4FromWords(w(6) ^ 0xffff, w(7) ^ 0xffff), via: 'teredo-client' },
    ];
  }
  return [];
}

function firstMatch(addr: Parsed, table: readonly (readonly [Cidr, DeniedRange])[]): DeniedRange | undefined {
  for (const [cidr, rule] of table) {
    if (addr.kind() === cidr[0].kind() && addr.match(cidr)) return rule;
  }
  return undefined;
}

function checkV4(addr: ipaddr.IPv4, loopbackAllowed: boolean): AddressVerdict {
  if (loopbackAllowed && addr.toString() === LOOPBACK_ALLOWANCE) return { allowed: true };
  const rule = firstMatch(addr, IPV4_TABLE);
  if (rule !== undefined) return { allowed: false, rule };
  // Belt and braces: the library's view of special ranges must agree.
  if (addr.range() !== 'unicast') return { allowed: false, rule: 'reserved' };
  return { allowed: true };
}

function checkV6(addr: ipaddr.IPv6, options: AddressPolicyOptions): AddressVerdict {
  if (addr.zoneId !== undefined) return { allowed: false, rule: 'scoped' };
  const range = addr.range();
  if (range === 'unspecified') return { allowed: false, rule: 'unspecified' }; // ::, RFC 4291 §2.5.2
  if (range === 'loopback') return { allowed: false, rule: 'loopback' }; // ::1, RFC 4291 §2.5.3

  const embedded = embeddedIPv4(addr);
  if (embedded.length > 0) {
    for (const { v4, via } of embedded) {
      // Only the mapped form dials the same IPv4 socket; the 127.0.0.1 allowance stops there.
      const verdict = checkV4(v4, options.allowLoopback === true && via === 'mapped');
      if (!verdict.allowed) return verdict;
    }
    return { allowed: true };
  }

  const rule = firstMatch(addr, IPV6_TABLE);
  if (rule !== undefined) return { allowed: false, rule };
  if (!addr.match(GLOBAL_UNICAST)) return { allowed: false, rule: 'not-global-unicast' };
  if (range !== 'unicast') return { allowed: false, rule: 'reserved' };
  return { allowed: true };
}

const DOTTED_TAIL = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/;

/**
 * ipaddr.parse with one correction: it reads the deprecated `::a.b.c.d` (IPv4-compatible, RFC 4291
 * §2.5.5.1, the form inet_ntop prints for ::/96) as IPv4-mapped `::ffff:a.b.c.d`, a different
 * address. Rewriting a dotted tail as two hex words first gives every string its one meaning.
 * parse(), not process(): process() would unwrap IPv4-mapped itself but none of the other forms.
 */
export function parseAddress(ip: string): Parsed {
  const m = isIPv6(ip) ? DOTTED_TAIL.exec(ip) : null;
  if (m === null) return ipaddr.parse(ip);
  const [hi1, lo1, hi2, lo2] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  const words = `${((hi1 << 8) | lo1).toString(16)}:${((hi2 << 8) | lo2).toString(16)}`;
  return ipaddr.IPv6.parse(`${m[1]}${words}${m[6] ?? ''}`);
}

/**
 * Decide whether the fetcher may dial `ip` (a literal address as DNS or a URL gives it, no
 * brackets). Unparsable input is denied.
 */
export function checkAddress(ip: string, options: AddressPolicyOptions = {}): AddressVerdict {
  // Only the strict spellings net.connect dials without a lookup. ipaddr.parse alone would also
  // take inet_aton legacy forms (0x7f.1, 017700000001); those never reach here from a WHATWG URL
  // (already normalised) or from DNS, and refusing them keeps one meaning per string.
  if (isIP(ip) === 0) return { allowed: false, rule: 'invalid' };
  let addr: Parsed;
  try {
    addr = parseAddress(ip);
  } catch {
    return { allowed: false, rule: 'invalid' };
  }
  if (options.allowCidrs !== undefined && options.allowCidrs.length > 0 && inAllowedCidr(addr, options.allowCidrs))
    return { allowed: true };
  return addr.kind() === 'ipv4' ? checkV4(addr as ipaddr.IPv4, options.allowLoopback === true) : checkV6(addr as ipaddr.IPv6, options);
}

export function isAddressAllowed(ip: string, options: AddressPolicyOptions = {}): boolean {
  return checkAddress(ip, options).allowed;
}

/** True if `addr` (or the IPv4 address an IPv4-mapped form carries) lies in one of `cidrs`. */
function inAllowedCidr(addr: Parsed, cidrs: readonly string[]): boolean {
  const forms: Parsed[] = [addr];
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) forms.push((addr as ipaddr.IPv6).toIPv4Address());
  for (const cidr of cidrs) {
    const range = cidr.includes('/') ? ipaddr.parseCIDR(cidr) : ([ipaddr.parse(cidr), cidr.includes(':') ? 128 : 32] as [Parsed, number]);
    for (const form of forms) if (form.kind() === range[0].kind() && form.match(range)) return true;
  }
  return false;
}

/** Checks a WEBHOOK_ALLOW_CIDRS-style list at configuration time; throws naming the bad entry. */
export function parseCidrList(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const ok = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!ok) throw new Error(`not an address or CIDR range: ${entry}`);
  }
  return entries;
}
