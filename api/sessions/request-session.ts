/**
 * The dashboard session as an HTTP request carries it: the cookie (its name depends on HTTPS,
 * sessions.ts), the origins a state-changing request may come from, and what the sign-in and
 * session records keep of the client. Shared by the management API (api/management/http.ts) and the OAuth consent
 * page (api/oauth/consent.ts), so both judge a browser the same way.
 */
import type { Request } from 'express';
import type { AccountStore } from '../../shared/store/types.js';
import { type ActiveSession, type CookieOptions, readSessionCookie, validateSession } from './sessions.js';

/** The client a request came from, as the HTTP layer saw it. */
export interface ClientInfo {
  address: string;
  userAgent: string;
  /** The session cookie the browser brought, if any: ended when a new session starts. */
  previousToken?: string | undefined;
}

/** A host name or address literal and an optional port (as in api/oauth/issuer.ts). */
const HOST_RE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Secure and __Host- when the browser reached us over HTTPS (directly, or via a trusted proxy). */
export function cookieOptions(req: Request): CookieOptions {
  return { secure: req.secure };
}

/** The origin the browser reached (scheme from TLS or a trusted proxy, Host header), or undefined when malformed. */
export function requestOrigin(req: Request): string | undefined {
  const host = req.host;
  if (typeof host !== 'string' || !HOST_RE.test(host)) return undefined;
  return new URL(`${req.protocol === 'https' ? 'https' : 'http'}://${host}`).origin;
}

/**
 * Origins a state-changing request may come from: the one the browser reached, and PUBLIC_URL's.
 * A cross-site page sends its own Origin with the request's Host unchanged, so it matches neither.
 */
export function allowedOrigins(req: Request, publicUrl: string | undefined): string[] {
  const own = requestOrigin(req);
  return [...(own ? [own] : []), ...(publicUrl ? [new URL(publicUrl).origin] : [])];
}

export function clientInfo(req: Request): ClientInfo {
  return {
    // req.ip is the socket's address unless TRUST_PROXY names proxies to believe (api/app.ts).
    address: req.ip ?? req.socket.remoteAddress ?? '',
    userAgent: (req.get('user-agent') ?? '').slice(0, 400),
    previousToken: readSessionCookie(req.headers.cookie, cookieOptions(req)),
  };
}

/** The live session the request's cookie names, if any. */
export function activeSession(req: Request, store: AccountStore, now: Date): Promise<ActiveSession | undefined> {
  return validateSession(store, readSessionCookie(req.headers.cookie, cookieOptions(req)), now);
}
