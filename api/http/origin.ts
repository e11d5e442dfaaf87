/**
 * An `Origin` header read as a browser serialises an origin (RFC 6454 §6.2, WHATWG URL "origin"
 * serialisation): scheme and host lower-cased, the scheme's default port dropped. Every place that
 * compares an Origin — client keys' allowed domains, CORS, the dashboard's CSRF and sign-in checks,
 * socket.io and /v2/ws handshakes — reads it through this one function (docs/decisions.md).
 *
 * Only the spelling of scheme, host and port is normalised. Anything else the URL parser would
 * rewrite (`https://app.allowed.com\@evil.com`, `https://app%2eallowed.com`, a path, user info,
 * an IPv4 address in another notation, a port with leading zeros) is refused, never normalised
 * into an allowed host.
 */

/** scheme "://" host [":" port]: a plain host name or a bracketed IPv6 literal, nothing else. */
const ORIGIN_RE = /^(https?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(0|[1-9][0-9]{0,4}))?$/i;
const DEFAULT_PORT: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

export interface SerialisedOrigin {
  /** The origin as a browser sends it, e.g. `https://app.allowed.com` or `http://localhost:8080`. */
  origin: string;
  /** Its host, lower-cased (IPv6 literals keep their brackets). */
  host: string;
}

export function serialisedOrigin(header: string | undefined): SerialisedOrigin | undefined {
  if (header === undefined) return undefined;
  const match = ORIGIN_RE.exec(header);
  if (!match) return undefined;
  const scheme = `${match[1]!.toLowerCase()}:`;
  const host = match[2]!.toLowerCase();
  const port = match[3];
  const candidate = `${scheme}//${host}${port === undefined ? '' : `:${port}`}`;
  if (!URL.canParse(candidate)) return undefined;
  const url = new URL(candidate);
  const expectedPort = port === undefined || port === DEFAULT_PORT[scheme] ? '' : port;
  // The parser must have kept host and port as written: no IPv4 renotation, no IDN or IPv6 rewrite.
  if (url.hostname !== host || url.port !== expectedPort) return undefined;
  return { origin: url.origin, host: url.hostname };
}

/** Whether `header` names the same origin as one of `origins` (each already serialised, e.g. `new URL(…).origin`). */
export function isOriginAmong(header: string | undefined, origins: readonly string[]): boolean {
  const origin = serialisedOrigin(header)?.origin;
  return origin !== undefined && origins.includes(origin);
}
