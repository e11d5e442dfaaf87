/**
 * IP allow-lists on keys and accounts (docs/api.md "Authentication" rule 6: Pro and Enterprise plans).
 * Entries are single addresses or CIDR ranges, IPv4 or IPv6, written the way people write them and
 * stored canonically: IPv4-mapped IPv6 (`::ffff:192.0.2.1`, `::ffff:10.0.0.0/104`) becomes the IPv4
 * it carries, a range keeps only its network bits (`10.1.2.3/8` → `10.0.0.0/8`), IPv6 is written in
 * RFC 5952 form. A request's address is judged the same way, so `::ffff:127.0.0.1` from a dual-stack
 * socket matches `127.0.0.1`. Only strict forms are accepted (no `127.1`, no hex, no zone ids):
 * an allow-list is a security boundary, and a form that parsers read differently has no place in it.
 *
 * A request passes when the key's list (if any) AND the account's list (if any) both allow its
 * address; an empty list allows every address.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalidInput, ServiceError } from '../errors.js';
import type { Plan } from '../store/types.js';

export const MAX_ALLOWLIST_ENTRIES = 100;
/** Plans that may set a non-empty allow-list (docs/api.md "Authentication" rule 6). */
export const IP_ALLOWLIST_PLANS: readonly Plan[] = ['pro', 'enterprise'];

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses one entry to its canonical range, or undefined when it is not a strict address or CIDR. */
function parseEntry(entry: string): Range | undefined {
  const [host, bits, ...rest] = entry.trim().split('/');
  if (host === undefined || rest.length > 0 || host.includes('%') || isIP(host) === 0) return undefined;
  let address: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(host);
  let prefix: number;
  if (bits === undefined) prefix = address.kind() === 'ipv4' ? 32 : 128;
  else if (/^\d{1,3}$/.test(bits)) prefix = Number(bits);
  else return undefined;
  if (prefix > (address.kind() === 'ipv4' ? 32 : 128)) return undefined;
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && prefix >= 96) {
    address = address.toIPv4Address();
    prefix -= 96;
  }
  const network =
    address instanceof ipaddr.IPv4
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
  return [network, prefix];
}

function format([address, prefix]: Range): string {
  const full = address.kind() === 'ipv4' ? 32 : 128;
  return prefix === full ? address.toString() : `${address.toString()}/${prefix}`;
}

/**
 * Validates and canonicalises an allow-list (duplicates dropped, order kept). Throws INVALID_INPUT
 * naming the first bad entry.
 */
export function normalizeAllowList(entries: readonly unknown[], field = 'allowedIps'): string[] {
  if (entries.length > MAX_ALLOWLIST_ENTRIES) throw invalidInput(field, `At most ${MAX_ALLOWLIST_ENTRIES} addresses or ranges`);
  const out: string[] = [];
  entries.forEach((entry, i) => {
    const range = typeof entry === 'string' && entry.length <= 64 ? parseEntry(entry) : undefined;
    if (!range) {
      throw invalidInput(
        `${field}[${i}]`,
        `${JSON.stringify(String(entry).slice(0, 64))} is not an IP address or CIDR range (e.g. 203.0.113.7, 198.51.100.0/24, 2001:db8::/32)`,
      );
    }
    const canonical = format(range);
    if (!out.includes(canonical)) out.push(canonical);
  });
  return out;
}

/** Refuses a non-empty list on Free and Basic; an empty list (clearing) is allowed on every plan. */
export function assertAllowListPlan(plan: Plan, entries: readonly string[]): void {
  if (entries.length === 0 || IP_ALLOWLIST_PLANS.includes(plan)) return;
  throw new ServiceError('FORBIDDEN', {
    message: 'IP allow-listing is available on the Pro and Enterprise plans',
    details: `plan: ${plan}`,
  });
}

/** The address as allow-lists read it (IPv4-mapped IPv6 → IPv4); undefined when it is not an IP address. */
export function parseClientAddress(address: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (address === undefined) return undefined;
  const bare = address.replace(/%[^%]*$/, ''); // a zone id says which interface, not which host
  if (isIP(bare) === 0) return undefined;
  const parsed = ipaddr.parse(bare);
  return parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
}

/** A compiled list: `allows(address)`; an empty list allows everything, an unparsable address nothing. */
export interface AllowList {
  readonly entries: readonly string[];
  allows(address: string | undefined): boolean;
}

export function compileAllowList(entries: readonly string[]): AllowList {
  const ranges = entries.map((e) => parseEntry(e)).filter((r): r is Range => r !== undefined);
  return {
    entries,
    allows(address) {
      if (entries.length === 0) return true;
      const parsed = parseClientAddress(address);
      if (!parsed) return false;
      return ranges.some(([network, prefix]) => network.kind() === parsed.kind() && parsed.match(network, prefix));
    },
  };
}

/** Both the key's and the account's lists must allow the address. */
export function isAddressAllowed(address: string | undefined, keyList: readonly string[], accountList: readonly string[]): boolean {
  return compileAllowList(keyList).allows(address) && compileAllowList(accountList).allows(address);
}
