/**
 * Client credentials of a request (RFC 6749 §2.3.1): HTTP Basic, or client_id and client_secret in
 * the form body, never both. A public client sends client_id alone. Used by /oauth/revoke; the
 * token endpoint leaves this to @node-oauth/oauth2-server.
 */
import type { Request } from 'express';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string | undefined;
}

export function clientCredentialsOf(req: Request): ClientCredentials | undefined {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const header = req.headers.authorization;
  if (header !== undefined) {
    if (body.client_id !== undefined || body.client_secret !== undefined) return undefined;
    const match = /^Basic +([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
    if (!match) return undefined;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    return clientId && clientSecret ? { clientId, clientSecret } : undefined;
  }
  const clientId = body.client_id;
  const clientSecret = body.client_secret;
  if (typeof clientId !== 'string' || clientId === '') return undefined;
  if (clientSecret !== undefined && (typeof clientSecret !== 'string' || clientSecret === '')) return undefined;
  return { clientId, clientSecret };
}

/** §2.3.1: the id and secret are form-urlencoded before they are put in the Basic header. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
