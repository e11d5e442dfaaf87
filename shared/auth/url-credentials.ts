/**
 * Query parameters that carry a credential. A URL the service builds from a request it received
 * (a sign-in page's `returnTo`, a redirect, a link) never copies them: URLs end up in browser
 * history, logs and `Referer` headers (RFC 6750 §5.3 advises against credentials in URLs).
 */
export const CREDENTIAL_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'api_key',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'password',
]);

/** `params` without the credential parameters (names compared case-insensitively). */
export function withoutCredentials(params: Record<string, string>): URLSearchParams {
  return new URLSearchParams(Object.entries(params).filter(([name]) => !CREDENTIAL_QUERY_PARAMETERS.has(name.toLowerCase())));
}
