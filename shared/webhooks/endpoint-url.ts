/**
 * Which URLs an endpoint may have (checked when it is created or changed; the SSRF guard checks
 * again at every attempt). https only, except plain http to a literal address inside
 * WEBHOOK_ALLOW_CIDRS (an internal receiver the operator vetted). No credentials in the URL (they
 * would be logged and shown); a literal address outside the allow-list must be public.
 */
import { isIP } from 'node:net';
import { invalidInput } from '../errors.js';
import { checkAddress } from '../net/address-policy.js';

export const MAX_ENDPOINT_URL_LENGTH = 2000;

export function checkEndpointUrl(raw: string, allowCidrs: readonly string[]): string {
  if (raw.length > MAX_ENDPOINT_URL_LENGTH || !URL.canParse(raw)) throw invalidInput('url', 'url must be an absolute https URL');
  const url = new URL(raw);
  if (url.username !== '' || url.password !== '') throw invalidInput('url', 'url must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) !== 0;
  const vetted = literal && allowCidrs.length > 0 && checkAddress(host, { allowCidrs }).allowed;
  if (url.protocol === 'http:' && !(vetted && !checkAddress(host).allowed)) {
    throw invalidInput('url', 'url must use https (plain http only to an address listed in WEBHOOK_ALLOW_CIDRS)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput('url', 'url must be an absolute https URL');
  if (literal && !checkAddress(host, { allowCidrs }).allowed) throw invalidInput('url', 'url points at a private or reserved address');
  url.hash = '';
  return url.toString();
}
