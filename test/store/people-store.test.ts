/** The dashboard's people stores (users, memberships, sessions, one-time links, sign-in throttle) on SQLite and PostgreSQL. */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENGINES, storeOnEngine } from './engines.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(ENGINES)('people stores on %s', (engine) => {
  const db = storeOnEngine(engine);

  const uniqueEmail = () => `Person.${randomUUID().slice(0, 8)}@Example.COM`;

  it('creates users with emails unique case-insensitively and finds them by any case', async () => {
    const email = uniqueEmail();
    const user = await db.store.users.createUser({ email: `  ${email} `, name: 'Ada' });
    expect(user).toMatchObject({ email, name: 'Ada', hasPassword: false, passwordChangedAt: null });
    expect(user!.id).toMatch(/^usr_/);
    expect(await db.store.users.createUser({ email: email.toLowerCase(), name: 'Copy' })).toBeUndefined();
    expect(await db.store.users.createUser({ email: email.toUpperCase(), name: 'Copy' })).toBeUndefined();

    const found = await db.store.users.findUserByEmail(email.toUpperCase());
    expect(found).toEqual({ user, passwordHash: null });
    expect(await db.store.users.getUser(user!.id)).toEqual(user);
    expect(await db.store.users.findUserByEmail('nobody@example.com')).toBeUndefined();

    const at = new Date(Date.UTC(2030, 0, 1, 2, 3, 4, 5));
    expect(await db.store.users.setPasswordHash(user!.id, '$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA', at)).toBe(true);
    expect(await db.store.users.getPasswordHash(user!.id)).toBe('$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA');
    expect(await db.store.users.getUser(user!.id)).toMatchObject({ hasPassword: true, passwordChangedAt: at });
    expect(await db.store.users.setPasswordHash('usr_missing', 'x', at)).toBe(false);
    expect(await db.store.users.getPasswordHash('usr_missing')).toBeUndefined();
  });

  it('lets two concurrent creations of one email produce exactly one user', async () => {
    const email = uniqueEmail();
    const results = await Promise.all([1, 2, 3, 4].map((i) => db.store.users.createUser({ email, name: `n${i}` })));
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
  });

  it('keeps memberships with roles, lists them from both sides and counts owners', async () => {
    const acc = await db.store.createAccount({ name: 'Team', plan: 'pro' });
    const other = await db.store.createAccount({ name: 'Other', plan: 'free' });
    const ada = (await db.store.users.createUser({ email: uniqueEmail(), name: 'Ada' }))!;
    const bob = (await db.store.users.createUser({ email: uniqueEmail(), name: 'Bob' }))!;

    expect(await db.store.users.addMembership(acc.id, ada.id, 'owner')).toBe(true);
    expect(await db.store.users.addMembership(acc.id, ada.id, 'viewer')).toBe(false);
    expect(await db.store.users.addMembership(acc.id, bob.id, 'developer')).toBe(true);
    expect(await db.store.users.addMembership(other.id, bob.id, 'viewer')).toBe(true);
    await expect(db.store.users.addMembership(acc.id, bob.id, 'king' as 'owner')).rejects.toThrow(RangeError);

    expect((await db.store.users.getMembership(acc.id, ada.id))?.role).toBe('owner');
    expect(await db.store.users.getMembership(other.id, ada.id)).toBeUndefined();
    const members = await db.store.users.listMembers(acc.id);
    // Listed by email, case-insensitively.
    const expected = [
      [ada.id, 'owner', ada.email, false],
      [bob.id, 'developer', bob.email, false],
    ].sort((x, y) => String(x[2]).toLowerCase().localeCompare(String(y[2]).toLowerCase()));
    expect(members.map((m) => [m.userId, m.role, m.email, m.hasPassword])).toEqual(expected);
    const bobs = await db.store.users.listMemberships(bob.id);
    expect(bobs.map((m) => [m.accountId, m.accountName, m.plan, m.role]).sort((x, y) => x[1]!.localeCompare(y[1]!))).toEqual([
      [other.id, 'Other', 'free', 'viewer'],
      [acc.id, 'Team', 'pro', 'developer'],
    ]);
    expect(await db.store.users.countOwners(acc.id)).toBe(1);
    expect(await db.store.users.setRole(acc.id, bob.id, 'owner')).toBe(true);
    expect(await db.store.users.countOwners(acc.id)).toBe(2);
    expect(await db.store.users.setRole(acc.id, 'usr_missing', 'owner')).toBe(false);
    expect(await db.store.users.removeMembership(acc.id, bob.id)).toBe(true);
    expect(await db.store.users.removeMembership(acc.id, bob.id)).toBe(false);
    expect((await db.store.users.listMembers(acc.id)).map((m) => m.userId)).toEqual([ada.id]);
  });

  it('stores sessions by token hash; touches, rotates, lists the live ones, ends one or all', async () => {
    const user = (await db.store.users.createUser({ email: uniqueEmail(), name: '' }))!;
    const now = new Date(Date.UTC(2030, 5, 1, 12));
    const hour = 3_600_000;
    const make = (id: string, token: string, expiresInMs: number, idleMs = 2 * hour) =>
      db.store.sessions.create({
        id,
        tokenHash: sha(token),
        userId: user.id,
        expiresAt: new Date(now.getTime() + expiresInMs),
        idleTimeoutMs: idleMs,
        userAgent: 'x'.repeat(400),
        address: '203.0.113.7',
        now,
      });
    const a = await make(`ses_${randomUUID()}`, 'token-a', 24 * hour);
    const b = await make(`ses_${randomUUID()}`, 'token-b', 24 * hour);
    const dead = await make(`ses_${randomUUID()}`, 'token-dead', hour / 2);
    expect(a.userAgent).toHaveLength(256);
    expect(a).toMatchObject({ createdAt: now, lastSeenAt: now, idleTimeoutMs: 2 * hour, address: '203.0.113.7' });

    const found = await db.store.sessions.findByTokenHash(sha('token-a'));
    expect(found).toEqual({ session: a, tokenHash: sha('token-a') });
    expect(await db.store.sessions.findByTokenHash(sha('nope'))).toBeUndefined();

    const later = new Date(now.getTime() + hour);
    await db.store.sessions.touch(b.id, later);
    await db.store.sessions.touch(b.id, now); // never moves back
    expect((await db.store.sessions.findByTokenHash(sha('token-b')))?.session.lastSeenAt).toEqual(later);

    // At now + 1.5 h: `dead` passed its absolute end, `a` is idle 1.5 h (< 2 h), `b` touched 0.5 h ago.
    const listed = await db.store.sessions.list(user.id, new Date(now.getTime() + 1.5 * hour));
    expect(listed.map((s) => s.id)).toEqual([b.id, a.id]);
    // At now + 2.5 h `a` has been idle too long.
    expect((await db.store.sessions.list(user.id, new Date(now.getTime() + 2.5 * hour))).map((s) => s.id)).toEqual([b.id]);

    expect(await db.store.sessions.rotate(a.id, sha('token-a2'), later)).toBe(true);
    expect(await db.store.sessions.findByTokenHash(sha('token-a'))).toBeUndefined();
    expect((await db.store.sessions.findByTokenHash(sha('token-a2')))?.session.id).toBe(a.id);
    expect(await db.store.sessions.rotate(dead.id, sha('x'), new Date(now.getTime() + hour))).toBe(false);

    expect(await db.store.sessions.end('usr_other', a.id)).toBe(false);
    expect(await db.store.sessions.end(user.id, a.id)).toBe(true);
    expect(await db.store.sessions.end(user.id, a.id)).toBe(false);
    const c = await make(`ses_${randomUUID()}`, 'token-c', 24 * hour);
    expect(await db.store.sessions.endAll(user.id, c.id)).toBe(2); // b and dead
    expect((await db.store.sessions.list(user.id, now)).map((s) => s.id)).toEqual([c.id]);
    expect(await db.store.sessions.endAll(user.id)).toBe(1);
  });

  it('purges sessions past their absolute end or idle timeout', async () => {
    const user = (await db.store.users.createUser({ email: uniqueEmail(), name: '' }))!;
    const now = new Date(Date.UTC(2031, 0, 1));
    const base = { userId: user.id, userAgent: '', address: '', now };
    await db.store.sessions.create({
      ...base,
      id: 'ses_p1',
      tokenHash: sha('p1'),
      expiresAt: new Date(now.getTime() + 10),
      idleTimeoutMs: 1e9,
    });
    await db.store.sessions.create({
      ...base,
      id: 'ses_p2',
      tokenHash: sha('p2'),
      expiresAt: new Date(now.getTime() + 1e9),
      idleTimeoutMs: 10,
    });
    await db.store.sessions.create({
      ...base,
      id: 'ses_p3',
      tokenHash: sha('p3'),
      expiresAt: new Date(now.getTime() + 1e9),
      idleTimeoutMs: 1e9,
    });
    expect(await db.store.sessions.purgeExpired(new Date(now.getTime() + 100))).toBeGreaterThanOrEqual(2);
    expect(await db.store.sessions.findByTokenHash(sha('p1'))).toBeUndefined();
    expect(await db.store.sessions.findByTokenHash(sha('p2'))).toBeUndefined();
    expect(await db.store.sessions.findByTokenHash(sha('p3'))).toBeDefined();
  });

  it('spends one-time links once, before they expire; a newer link replaces older ones', async () => {
    const user = (await db.store.users.createUser({ email: uniqueEmail(), name: '' }))!;
    const now = new Date(Date.UTC(2030, 0, 1));
    const in24h = new Date(now.getTime() + 24 * 3_600_000);
    await db.store.oneTimeLinks.create({ tokenHash: sha('l1'), userId: user.id, purpose: 'setup', expiresAt: in24h, now });
    expect(await db.store.oneTimeLinks.peek(sha('l1'), now)).toEqual({ userId: user.id, purpose: 'setup' });
    await db.store.oneTimeLinks.create({ tokenHash: sha('l2'), userId: user.id, purpose: 'reset', expiresAt: in24h, now });
    expect(await db.store.oneTimeLinks.consume(sha('l1'), now)).toBeUndefined();

    const racers = await Promise.all([1, 2, 3].map(() => db.store.oneTimeLinks.consume(sha('l2'), now)));
    expect(racers.filter(Boolean)).toEqual([{ userId: user.id, purpose: 'reset' }]);
    expect(await db.store.oneTimeLinks.peek(sha('l2'), now)).toBeUndefined();

    await db.store.oneTimeLinks.create({ tokenHash: sha('l3'), userId: user.id, purpose: 'reset', expiresAt: in24h, now });
    expect(await db.store.oneTimeLinks.consume(sha('l3'), in24h)).toBeUndefined(); // expires_at is exclusive
    expect(await db.store.oneTimeLinks.consume(sha('l3'), new Date(in24h.getTime() - 1))).toEqual({ userId: user.id, purpose: 'reset' });
    await expect(
      db.store.oneTimeLinks.create({ tokenHash: sha('l4'), userId: user.id, purpose: 'login' as 'setup', expiresAt: in24h, now }),
    ).rejects.toThrow(RangeError);
  });

  it('counts sign-in failures in fixed windows per subject, atomically', async () => {
    const subject = `address:${randomUUID()}`;
    const windowMs = 15 * 60_000;
    const t0 = new Date(Date.UTC(2030, 0, 1));
    const counts = await Promise.all(Array.from({ length: 8 }, () => db.store.signInThrottle.recordFailure(subject, windowMs, t0)));
    expect([...counts].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const state = await db.store.signInThrottle.get([subject, 'email:none'], windowMs, new Date(t0.getTime() + 1000));
    expect(state.get(subject)).toEqual({ failures: 8, windowStartedAt: t0 });
    expect(state.has('email:none')).toBe(false);
    // The window closes windowMs after it opened; the next failure starts a new one.
    const t1 = new Date(t0.getTime() + windowMs);
    expect((await db.store.signInThrottle.get([subject], windowMs, t1)).size).toBe(0);
    expect(await db.store.signInThrottle.recordFailure(subject, windowMs, t1)).toBe(1);
    expect((await db.store.signInThrottle.get([subject], windowMs, t1)).get(subject)).toEqual({ failures: 1, windowStartedAt: t1 });
    await db.store.signInThrottle.clear(subject);
    expect((await db.store.signInThrottle.get([subject], windowMs, t1)).size).toBe(0);
  });

  it('deletes a person with their memberships, sessions and links', async () => {
    const acc = await db.store.createAccount({ name: 'Gone', plan: 'free' });
    const user = (await db.store.users.createUser({ email: uniqueEmail(), name: '' }))!;
    const now = new Date();
    await db.store.users.addMembership(acc.id, user.id, 'admin');
    await db.store.sessions.create({
      id: `ses_${randomUUID()}`,
      tokenHash: sha(`del-${user.id}`),
      userId: user.id,
      expiresAt: new Date(now.getTime() + 1e6),
      idleTimeoutMs: 1e6,
      userAgent: '',
      address: '',
      now,
    });
    await db.store.oneTimeLinks.create({
      tokenHash: sha(`link-${user.id}`),
      userId: user.id,
      purpose: 'reset',
      expiresAt: new Date(now.getTime() + 1e6),
      now,
    });
    expect(await db.store.users.deleteUser(user.id)).toBe(true);
    expect(await db.store.users.deleteUser(user.id)).toBe(false);
    expect(await db.store.users.listMembers(acc.id)).toEqual([]);
    expect(await db.store.sessions.findByTokenHash(sha(`del-${user.id}`))).toBeUndefined();
    expect(await db.store.oneTimeLinks.peek(sha(`link-${user.id}`), now)).toBeUndefined();
  });
});
