/**
 * The authorization server's issuer identifier (RFC 8414 §2): `PUBLIC_URL` when it is set, the
 * deployment's one public origin; otherwise the origin the client reached, `https://host[:port]`
 * without a path or a trailing slash (docs/decisions.md "Keys and authentication"). The scheme is
 * then https when the connection is TLS, or when a trusted proxy says so (X-Forwarded-Proto,
 * TRUST_PROXY); the host is the Host header, or X-Forwarded-Host from a trusted proxy — Express's
 * `req.protocol` and `req.host` apply exactly those rules.
 *
 * Tokens are opaque and looked up here, so nothing issued depends on the name; the issuer is what
 * a client compares with the one it discovered (metadata, RFC 9207 `iss` on authorization responses).
 */
import type { Request } from 'express';
import { OAuthEndpointError } from './errors.js';

/** A host name or address literal and an optional port: nothing that could add a path, query, user info or a second host. */
const HOST_RE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The issuer for a request: `publicUrl` (an origin, shared/config.ts PUBLIC_URL) when given, else the request's origin. */
export function issuerOf(req: Request, publicUrl?: string): string {
  if (publicUrl !== undefined) return new URL(publicUrl).origin;
  const host = req.host;
  if (typeof host !== 'string' || !HOST_RE.test(host)) {
    throw new OAuthEndpointError(400, 'invalid_request', 'Invalid request: the Host header is missing or malformed');
  }
  // URL normalises case and drops a default port, so every spelling of one origin gives one issuer.
  return new URL(`${req.protocol === 'https' ? 'https' : 'http'}://${host}`).origin;
}
