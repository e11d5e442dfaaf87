/**
 * Cross-site request forgery defence for session-authenticated requests (OWASP CSRF cheat sheet,
 * "signed double-submit cookie"): every state-changing request must come from the dashboard's own
 * origin (`Origin`, or `Sec-Fetch-Site: same-origin` when a browser omits Origin) AND carry the
 * session's CSRF token in `X-CSRF-Token` (or the consent form's hidden `csrf_token` field).
 *
 * The token is HMAC-SHA-256(key = the session token, message = the session id). The server holds
 * only the session token's hash, but it receives the token in the cookie with every request, so it
 * can recompute the HMAC; no server-wide secret is needed, the token changes whenever the session
 * token is rotated, and a page that leaks its CSRF token leaks nothing that would let anyone forge
 * the cookie (HMAC is one-way).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../../shared/errors.js';
import { isOriginAmong } from '../http/origin.js';

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FORM_FIELD = 'csrf_token';
const CONTEXT = 'sha224d-csrf-v1\0';
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfToken(sessionToken: string, sessionId: string): string {
  return createHmac('sha256', sessionToken)
    .update(CONTEXT + sessionId, 'utf8')
    .digest('base64url');
}

export function csrfTokenMatches(sessionToken: string, sessionId: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 128) return false;
  const expected = Buffer.from(csrfToken(sessionToken, sessionId), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export interface StateChangeRequest {
  method: string;
  /** The Origin header, if any. */
  origin: string | undefined;
  /** The Sec-Fetch-Site header, if any. */
  secFetchSite: string | undefined;
  /** From X-CSRF-Token, or the form field. */
  presentedToken: unknown;
}

/**
 * Throws FORBIDDEN unless a state-changing request comes from `allowedOrigins` and carries the
 * session's CSRF token. Safe methods pass. Both checks are required: the origin check stops a
 * forged cross-site form even before a token could be guessed, the token stops a same-site attacker
 * (a sibling subdomain) that Origin alone would not.
 */
export function assertCsrf(req: StateChangeRequest, session: { token: string; id: string }, allowedOrigins: readonly string[]): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const fromOrigin = req.origin !== undefined ? isOriginAmong(req.origin, allowedOrigins) : req.secFetchSite === 'same-origin';
  if (!fromOrigin) throw forbidden('cross-origin state-changing request');
  if (!csrfTokenMatches(session.token, session.id, req.presentedToken)) throw forbidden('missing or wrong CSRF token');
}

function forbidden(reason: string): ServiceError {
  return new ServiceError('FORBIDDEN', {
    message: 'This request must come from the dashboard page with its security token; reload the page and try again',
    cause: new Error(reason),
  });
}
