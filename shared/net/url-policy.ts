import { isIPv4 } from 'node:net';
import { ServiceError, invalidInput } from '../errors.js';
import { checkAddress, type AddressPolicyOptions, type DeniedRange } from './address-policy.js';

/**
 * URL-level SSRF rules: parse with the WHATWG URL parser, the same one the fetcher
 * dials with, so there is one reading of every URL; only http and https; no credentials; and a
 * literal IP host is checked here because the DNS lookup hook never sees it.
 *
 * The WHATWG parser already normalises the legacy IPv4 spellings of special-scheme hosts
 * (`2130706433`, `0x7f.1`, `0177.0.0.1`, `%31%32%37.0.0.1`, full-width digits) to dotted decimal,
 * so after parsing a host is exactly one of: dotted-decimal IPv4, bracketed IPv6, or a name.
 */

export type UrlRule = 'scheme' | 'credentials' | 'port' | `address:${DeniedRange}`;

export interface CheckedUrl {
  url: URL;
  /** The host as the dialer sees it: brackets removed from IPv6. */
  host: string;
  /** 'name' hosts are checked later, on every answer the lookup hook returns. */
  hostKind: 'ipv4' | 'ipv6' | 'name';
}

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:']);

/** The one public shape of a policy refusal: dull message, the rule in details, never an address. */
export function urlNotAllowed(rule: UrlRule, hop = 0): ServiceError {
  const where = hop === 0 ? '' : ` (redirect ${hop})`;
  return new ServiceError('URL_NOT_ALLOWED', { details: `rule: ${rule}${where}` });
}

/** Parse a caller-supplied URL; INVALID_INPUT (field `url`) if it is not a URL at all. */
export function parseUrl(input: string, field = 'url'): URL {
  if (!URL.canParse(input)) throw invalidInput(field, 'url must be an absolute http or https URL');
  return new URL(input);
}

/**
 * Apply the URL rules to an already-parsed URL (the first request or a redirect hop). Throws
 * URL_NOT_ALLOWED naming the rule.
 */
export function checkUrl(url: URL, options: AddressPolicyOptions = {}, hop = 0): CheckedUrl {
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) throw urlNotAllowed('scheme', hop);
  if (url.username !== '' || url.password !== '') throw urlNotAllowed('credentials', hop);
  // Port 0 cannot be dialled; refusing it keeps "connection failed" meaning the remote end.
  if (url.port === '0') throw urlNotAllowed('port', hop);

  const raw = url.hostname;
  let host = raw;
  let hostKind: CheckedUrl['hostKind'] = 'name';
  if (raw.startsWith('[') && raw.endsWith(']')) {
    host = raw.slice(1, -1);
    hostKind = 'ipv6';
  } else if (isIPv4(raw)) {
    hostKind = 'ipv4';
  }
  if (hostKind !== 'name') {
    const verdict = checkAddress(host, options);
    if (!verdict.allowed) throw urlNotAllowed(`address:${verdict.rule}`, hop);
  }
  return { url, host, hostKind };
}
