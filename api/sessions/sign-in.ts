/**
 * Signing in with email and password, throttled per client address and per email
 * (docs/decisions.md "Dashboard and accounts"):
 *  - failures are counted in fixed windows (SIGN_IN_WINDOW_MINUTES) per address (an IPv6 client by
 *    its /64, which one host usually owns whole) and per email (kept as a hash); past either limit,
 *    further attempts are refused with 429 until the window ends, whether the password is right or
 *    not, so guessing cannot continue by waiting for a lucky answer;
 *  - an unknown email, a person without a password yet and a wrong password get the same answer,
 *    and scrypt runs in every case (against a dummy hash for unknown emails), so neither the answer
 *    nor its timing says whether an email exists;
 *  - success clears the email's count (not the address's) and always issues a new session.
 */
import { createHash } from 'node:crypto';
import { ServiceError } from '../../shared/errors.js';
import type { UserRecord } from '../../shared/store/dashboard-types.js';
import { normalizeEmail } from '../../shared/store/kysely-users.js';
import type { AccountStore } from '../../shared/store/types.js';
import { parseClientAddress } from '../../shared/keys/ip-allowlist.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { issueSession, type IssuedSession, type SessionPolicy } from './sessions.js';

export const SIGN_IN_FAILED_MESSAGE = 'Email or password is incorrect';

export interface ThrottlePolicy {
  windowMs: number;
  maxPerAddress: number;
  maxPerEmail: number;
}

export interface SignInInput {
  email: string;
  password: string;
  address: string;
  userAgent: string;
  now: Date;
}

type SignInStores = Pick<AccountStore, 'users' | 'sessions' | 'signInThrottle'>;

/** The throttle subject of a client address: IPv4 whole, IPv6 by its /64. */
export function addressSubject(address: string): string {
  const parsed = parseClientAddress(address);
  if (!parsed) return `address:${address.slice(0, 64)}`;
  if (parsed.kind() === 'ipv4') return `address:${parsed.toString()}`;
  const parts = parsed.toNormalizedString().split(':').slice(0, 4).join(':');
  return `address:${parts}::/64`;
}

export function emailSubject(email: string): string {
  return `email:${createHash('sha256').update(normalizeEmail(email), 'utf8').digest('hex')}`;
}

export async function signIn(
  store: SignInStores,
  input: SignInInput,
  policies: { throttle: ThrottlePolicy; session: SessionPolicy },
): Promise<IssuedSession & { user: UserRecord }> {
  const { throttle } = policies;
  const subjects = [addressSubject(input.address), emailSubject(input.email)] as const;
  const state = await store.signInThrottle.get(subjects, throttle.windowMs, input.now);
  const limits = [throttle.maxPerAddress, throttle.maxPerEmail];
  subjects.forEach((subject, i) => {
    const s = state.get(subject);
    if (s && s.failures >= limits[i]!) throw throttled(s.windowStartedAt.getTime() + throttle.windowMs - input.now.getTime());
  });

  const found = await store.users.findUserByEmail(input.email);
  const stored = found?.passwordHash ?? null;
  const ok = await verifyPassword(input.password, stored ?? (await dummyPasswordHash()));
  if (!found || stored === null || !ok) {
    await Promise.all(subjects.map((s) => store.signInThrottle.recordFailure(s, throttle.windowMs, input.now)));
    throw new ServiceError('UNAUTHORIZED', {
      message: SIGN_IN_FAILED_MESSAGE,
      cause: new Error(!found ? 'unknown email' : stored === null ? 'no password set' : 'wrong password'),
    });
  }

  await store.signInThrottle.clear(subjects[1]);
  if (needsRehash(stored)) await store.users.setPasswordHash(found.user.id, await hashPassword(input.password), input.now);
  const issued = await issueSession(store, {
    userId: found.user.id,
    userAgent: input.userAgent,
    address: input.address,
    now: input.now,
    policy: policies.session,
  });
  return { ...issued, user: found.user };
}

function throttled(msLeft: number): ServiceError {
  const retryAfter = Math.max(1, Math.ceil(msLeft / 1000));
  return new ServiceError('RATE_LIMIT_EXCEEDED', {
    message: 'Too many sign-in attempts; try again later',
    details: `retry after ${retryAfter} seconds`,
    retryAfter,
  });
}
