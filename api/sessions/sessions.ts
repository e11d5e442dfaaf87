/**
 * Dashboard sessions: server-side rows holding only the SHA-256 of the token the cookie carries.
 *  - Every sign-in issues a new token and a new row (never adopts a token the browser brought), so
 *    a session cannot be fixed in advance; a password change rotates the current session's token.
 *  - A session ends at its absolute end (SESSION_MAX_AGE_HOURS) or after SESSION_IDLE_MINUTES
 *    without a request, whichever comes first; last-seen is written at most once a minute.
 *  - The cookie is `HttpOnly; SameSite=Lax; Path=/`, plus `Secure` and the `__Host-` prefix over
 *    HTTPS (RFC 6265bis §4.1.3.2: the browser then refuses it from plain HTTP or another domain).
 */
import { randomUUID } from 'node:crypto';
import { generateToken, hashesEqual, hashToken, isToken } from '../../shared/accounts/secret-tokens.js';
import { isSessionAlive, type SessionRecord, type UserRecord } from '../../shared/store/dashboard-types.js';
import type { AccountStore } from '../../shared/store/types.js';
import { csrfToken } from './csrf.js';

export const SESSION_COOKIE = 'sha224d_session';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** last_seen_at is written at most this often per session. */
export const TOUCH_INTERVAL_MS = 60_000;

export interface SessionPolicy {
  maxAgeMs: number;
  idleMs: number;
}

export interface IssuedSession {
  /** The cookie's value; shown to nobody else and never stored. */
  token: string;
  session: SessionRecord;
  csrfToken: string;
}

export interface ActiveSession {
  token: string;
  session: SessionRecord;
  user: UserRecord;
}

type SessionStores = Pick<AccountStore, 'sessions' | 'users'>;

export async function issueSession(
  store: SessionStores,
  input: { userId: string; userAgent: string; address: string; now: Date; policy: SessionPolicy },
): Promise<IssuedSession> {
  const token = generateToken('session');
  const session = await store.sessions.create({
    id: `ses_${randomUUID()}`,
    tokenHash: hashToken(token),
    userId: input.userId,
    expiresAt: new Date(input.now.getTime() + input.policy.maxAgeMs),
    idleTimeoutMs: input.policy.idleMs,
    userAgent: input.userAgent,
    address: input.address,
    now: input.now,
  });
  return { token, session, csrfToken: csrfToken(token, session.id) };
}

/** The live session a cookie names, with its person; undefined for anything else (malformed, unknown, ended, expired, idle). */
export async function validateSession(store: SessionStores, token: unknown, now: Date): Promise<ActiveSession | undefined> {
  if (!isToken('session', token)) return undefined;
  const tokenHash = hashToken(token);
  const found = await store.sessions.findByTokenHash(tokenHash);
  if (!found || !hashesEqual(found.tokenHash, tokenHash) || !isSessionAlive(found.session, now)) return undefined;
  const user = await store.users.getUser(found.session.userId);
  if (!user) return undefined;
  if (now.getTime() - found.session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await store.sessions.touch(found.session.id, now);
  }
  return { token, session: found.session, user };
}

/** Gives the session a new token (same id, same end): the old cookie stops working at once. */
export async function rotateSession(store: SessionStores, session: SessionRecord, now: Date): Promise<IssuedSession | undefined> {
  const token = generateToken('session');
  if (!(await store.sessions.rotate(session.id, hashToken(token), now))) return undefined;
  return { token, session: { ...session, lastSeenAt: now }, csrfToken: csrfToken(token, session.id) };
}

/** Ends the session a cookie names, if any (sign-out); a malformed or unknown cookie changes nothing. */
export async function endSessionByToken(store: SessionStores, token: unknown): Promise<void> {
  if (!isToken('session', token)) return;
  const found = await store.sessions.findByTokenHash(hashToken(token));
  if (found) await store.sessions.end(found.session.userId, found.session.id);
}

export interface CookieOptions {
  /** Served over HTTPS (directly or behind a trusted proxy): Secure and the __Host- prefix. */
  secure: boolean;
}

export function sessionCookieName(options: CookieOptions): string {
  return options.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The Set-Cookie value for a session; Max-Age follows the session's absolute end. */
export function sessionCookie(token: string, expiresAt: Date, now: Date, options: CookieOptions): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return [
    `${sessionCookieName(options)}=${token}`,
    'Path=/',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie value that removes the session cookie. */
export function clearSessionCookie(options: CookieOptions): string {
  return [`${sessionCookieName(options)}=`, 'Path=/', 'Max-Age=0', 'HttpOnly', 'SameSite=Lax', ...(options.secure ? ['Secure'] : [])].join(
    '; ',
  );
}

/** The session token from a Cookie header (the name depends on HTTPS); undefined when absent or repeated. */
export function readSessionCookie(cookieHeader: string | undefined, options: CookieOptions): string | undefined {
  if (!cookieHeader) return undefined;
  const name = sessionCookieName(options);
  const values = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1));
  // Two cookies of one name (one planted by a sibling subdomain) are refused rather than guessed between.
  return values.length === 1 ? values[0] : undefined;
}
