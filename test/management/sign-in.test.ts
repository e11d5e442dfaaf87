/** Sign-in: one answer for unknown email and wrong password, throttling per address and per email, fresh sessions, re-hashing. */
import { randomUUID, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash } from '../../api/sessions/passwords.js';
import { addressSubject, emailSubject, signIn, SIGN_IN_FAILED_MESSAGE } from '../../api/sessions/sign-in.js';
import { validateSession } from '../../api/sessions/sessions.js';
import { ServiceError } from '../../shared/errors.js';
import { ENGINES, storeOnEngine } from '../store/engines.js';

const policies = {
  throttle: { windowMs: 15 * 60_000, maxPerAddress: 6, maxPerEmail: 3 },
  session: { maxAgeMs: 3_600_000, idleMs: 600_000 },
};
const PASSWORD = 'a long enough password';

async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe.each(ENGINES)('sign-in on %s', (engine) => {
  const db = storeOnEngine(engine);

  async function personWithPassword() {
    const email = `${randomUUID()}@Example.com`;
    const user = (await db.store.users.createUser({ email, name: '' }))!;
    await db.store.users.setPasswordHash(user.id, await hashPassword(PASSWORD), new Date());
    return { user, email };
  }
  const attempt = (email: string, password: string, address = `198.51.100.${Math.floor(Math.random() * 250)}`, now = new Date()) =>
    signIn(db.store, { email, password, address, userAgent: 'test', now }, policies);

  it('signs in with any case of the email and issues a new session every time', async () => {
    const { user, email } = await personWithPassword();
    const a = await attempt(email.toUpperCase(), PASSWORD);
    const b = await attempt(email, PASSWORD);
    expect(a.user.id).toBe(user.id);
    expect(a.token).not.toBe(b.token);
    expect((await validateSession(db.store, a.token, new Date()))?.user.id).toBe(user.id);
    expect((await validateSession(db.store, b.token, new Date()))?.user.id).toBe(user.id);
  });

  it('answers an unknown email, a person without a password and a wrong password identically', async () => {
    const { email } = await personWithPassword();
    const noPassword = `${randomUUID()}@example.com`;
    await db.store.users.createUser({ email: noPassword, name: '' });
    const errors = await Promise.all([
      rejection(attempt(`${randomUUID()}@example.com`, PASSWORD)),
      rejection(attempt(noPassword, PASSWORD)),
      rejection(attempt(email, 'not the password at all')),
    ]);
    for (const err of errors) {
      expect({ code: err.code, status: err.status, message: err.message, details: err.details }).toEqual({
        code: 'UNAUTHORIZED',
        status: 401,
        message: SIGN_IN_FAILED_MESSAGE,
        details: undefined,
      });
    }
  });

  it('throttles per email: after 3 failures even the right password is refused with 429 and Retry-After', async () => {
    const { email } = await personWithPassword();
    const now = new Date(Date.UTC(2030, 0, 1, 12));
    for (let i = 0; i < 3; i++) expect((await rejection(attempt(email, 'wrong password here', undefined, now))).code).toBe('UNAUTHORIZED');
    const refused = await rejection(attempt(email, PASSWORD, undefined, new Date(now.getTime() + 60_000)));
    expect(refused).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429, retryAfter: 14 * 60 });
    // The window closes 15 minutes after the first failure.
    expect((await attempt(email, PASSWORD, undefined, new Date(now.getTime() + 15 * 60_000))).user.email).toBe(email);
  });

  it('throttles per address across emails, known or not; an IPv6 client by its /64', async () => {
    const now = new Date(Date.UTC(2030, 0, 2));
    const address = '2001:db8:1:2::10';
    for (let i = 0; i < 6; i++) await rejection(attempt(`${randomUUID()}@example.com`, PASSWORD, address, now));
    const { email } = await personWithPassword();
    expect((await rejection(attempt(email, PASSWORD, '2001:db8:1:2:ffff::1', now))).code).toBe('RATE_LIMIT_EXCEEDED');
    expect((await attempt(email, PASSWORD, '2001:db8:1:3::10', now)).user.email).toBe(email);
  });

  it('clears the email count on success, so earlier failures do not add up across sign-ins', async () => {
    const { email } = await personWithPassword();
    const now = new Date(Date.UTC(2030, 0, 3));
    for (let round = 0; round < 3; round++) {
      await rejection(attempt(email, 'wrong password here', undefined, now));
      await rejection(attempt(email, 'wrong password here', undefined, now));
      await attempt(email, PASSWORD, undefined, now);
    }
    expect((await db.store.signInThrottle.get([emailSubject(email)], policies.throttle.windowMs, now)).size).toBe(0);
  });

  it('re-hashes a password stored with older parameters at the next sign-in', async () => {
    const email = `${randomUUID()}@example.com`;
    const user = (await db.store.users.createUser({ email, name: '' }))!;
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const old = `$scrypt$ln=14,r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`;
    await db.store.users.setPasswordHash(user.id, old, new Date());
    await attempt(email, PASSWORD);
    const now = await db.store.users.getPasswordHash(user.id);
    expect(now).not.toBe(old);
    expect(needsRehash(now!)).toBe(false);
    await attempt(email, PASSWORD);
  });

  it('names throttle subjects without storing the email itself', () => {
    expect(addressSubject('192.0.2.7')).toBe('address:192.0.2.7');
    expect(addressSubject('::ffff:192.0.2.7')).toBe('address:192.0.2.7');
    expect(addressSubject('2001:db8:a:b:c:d:e:f')).toBe('address:2001:db8:a:b::/64');
    expect(emailSubject('Ada@Example.com')).toBe(emailSubject('ada@example.com'));
    expect(emailSubject('ada@example.com')).toMatch(/^email:[0-9a-f]{64}$/);
  });
});
