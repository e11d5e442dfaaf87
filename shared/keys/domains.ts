/**
 * Allowed domains of client keys (docs/api.md "Authentication" rule 3): what may be stored, and how a
 * request's Origin host is matched against it. Both live here so the rule is written once.
 *
 * Decision: an entry is a lowercase host name ("app.example.com", "localhost") or a wildcard
 * "*.example.com", which matches any subdomain at any depth ("a.example.com", "a.b.example.com")
 * but not "example.com" itself; list the apex separately if wanted. The wildcard needs at least two
 * labels after it, so "*.com" is refused. No schemes, ports, paths or IP-literal brackets: a key
 * allowed on a host is allowed on every scheme and port of it.
 */
import { invalidInput } from '../errors.js';

const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)';
const HOST_RE = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const MAX_HOST_LENGTH = 253;
export const MAX_ALLOWED_DOMAINS = 50;

/** Trims, lowercases, checks and de-duplicates; throws INVALID_INPUT naming the bad entry. */
export function normalizeAllowedDomains(domains: readonly string[]): string[] {
  if (domains.length > MAX_ALLOWED_DOMAINS) {
    throw invalidInput('allowedDomains', `At most ${MAX_ALLOWED_DOMAINS} allowed domains`);
  }
  const out = new Set<string>();
  for (const raw of domains) {
    const domain = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
    if (!isValidDomainPattern(domain)) {
      throw invalidInput('allowedDomains', `Not a host name or *.host wildcard: ${JSON.stringify(String(raw))}`);
    }
    out.add(domain);
  }
  return [...out];
}

function isValidDomainPattern(domain: string): boolean {
  const host = domain.startsWith('*.') ? domain.slice(2) : domain;
  if (host.length === 0 || host.length > MAX_HOST_LENGTH || !HOST_RE.test(host)) return false;
  return domain === host || host.includes('.');
}

/** Whether `host` (an Origin's host name, port removed) is allowed by the key's list. */
export function isHostAllowed(allowedDomains: readonly string[], host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return allowedDomains.some((d) => (d.startsWith('*.') ? h.endsWith(d.slice(1)) && h.length > d.length - 1 : h === d));
}
