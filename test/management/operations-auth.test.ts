/** Sign-in, one-time links, the person's sessions and password change, as operations. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changePasswordOp,
  endAllSessionsOp,
  endSessionOp,
  linkInfoOp,
  listSessionsOp,
  meOp,
  setPasswordOp,
  signInOp,
  signOutOp,
} from '../../api/management/operations/auth.js';
import { EndAllSessionsRequest, LinkInfoResponse, SessionListResponse, SessionResponse } from '../../api/management/schemas/auth.js';
import { csrfTokenMatches } from '../../api/sessions/csrf.js';
import { validateSession } from '../../api/sessions/sessions.js';
import { issueOneTimeLink } from '../../shared/accounts/one-time-links.js';
import { addPersonToAccount } from '../../shared/accounts/people.js';
import { check, createFixture, type Fixture, PASSWORD, refusal } from './fixture.js';

const client = { address: '192.0.2.10', userAgent: 'Mozilla/5.0 test' };
const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');

describe('auth operations', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await createFixture();
  });
  afterAll(() => f?.close());

  it('signs in: a new session cookie, the memberships and a CSRF token bound to the session; the old cookie ends', async () => {
    const owner = await f.member('owner', 'enterprise');
    const first = await signInOp(f.ctx, { email: owner.user.email, password: PASSWORD }, client);
    check(SessionResponse, first.body);
    expect(first.body.memberships).toEqual([
      { accountId: owner.account.id, accountName: owner.account.name, plan: 'enterprise', role: 'owner' },
    ]);
    expect(csrfTokenMatches(first.session.token, first.body.session.id, first.body.csrfToken)).toBe(true);

    const second = await signInOp(
      f.ctx,
      { email: owner.user.email, password: PASSWORD },
      { ...client, previousToken: first.session.token },
    );
    expect(second.session.token).not.toBe(first.session.token);
    expect(await validateSession(f.store, first.session.token, f.clock.now)).toBeUndefined();
    expect((await validateSession(f.store, second.session.token, f.clock.now))?.user.id).toBe(owner.user.id);
    expect(await refusal(signInOp(f.ctx, { email: owner.user.email, password: 'wrong password!!' }, client))).toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('sets a first password with a one-time link, once, and signs the person in', async () => {
    const owner = await f.member('owner');
    const added = await addPersonToAccount(f.store, {
      accountId: owner.account.id,
      email: 'new.person@example.com',
      role: 'viewer',
      baseUrl: f.ctx.baseUrl,
    });
    const token = tokenOf(added.setupLink!.url);
    expect(check(LinkInfoResponse, await linkInfoOp(f.ctx, { token }))).toEqual({ email: 'new.person@example.com', purpose: 'setup' });
    expect(await refusal(setPasswordOp(f.ctx, { token, password: 'short' }, client))).toMatchObject({ code: 'INVALID_INPUT' });
    const done = await setPasswordOp(f.ctx, { token, password: 'my own new password' }, client);
    expect(done.body.user.email).toBe('new.person@example.com');
    expect(done.body.user.passwordChangedAt).not.toBeNull();
    expect((await validateSession(f.store, done.session.token, f.clock.now))?.user.id).toBe(added.user.id);
    expect(await refusal(setPasswordOp(f.ctx, { token, password: 'another new password' }, client))).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    expect(await refusal(linkInfoOp(f.ctx, { token }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(linkInfoOp(f.ctx, { token: 'not-a-link' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await signInOp(f.ctx, { email: 'New.Person@example.com', password: 'my own new password' }, client)).body.user.id).toBe(
      added.user.id,
    );
  });

  it('a reset link ends every other session of the person', async () => {
    const owner = await f.member('owner');
    const other = await f.session(owner.user.id);
    const added = await addPersonToAccount(f.store, {
      accountId: owner.account.id,
      email: owner.user.email,
      role: 'viewer',
      baseUrl: f.ctx.baseUrl,
    });
    expect(added.setupLink).toBeUndefined(); // has a password already
    const link = await issueOneTimeLink(f.store, { userId: owner.user.id, purpose: 'reset', baseUrl: f.ctx.baseUrl });
    await setPasswordOp(f.ctx, { token: tokenOf(link.url), password: 'reset to this one' }, client);
    expect(await validateSession(f.store, owner.token, f.clock.now)).toBeUndefined();
    expect(await validateSession(f.store, other.token, f.clock.now)).toBeUndefined();
  });

  it('lists, ends one and ends all sessions; me answers the current session', async () => {
    const viewer = await f.member('viewer');
    const second = await f.session(viewer.user.id);
    const third = await f.session(viewer.user.id);
    expect(check(SessionResponse, await meOp(f.ctx, viewer)).session.id).toBe(viewer.session.id);
    const listed = check(SessionListResponse, await listSessionsOp(f.ctx, viewer));
    expect(listed.sessions).toHaveLength(3);
    expect(listed.sessions.filter((s) => s.current).map((s) => s.id)).toEqual([viewer.session.id]);

    await endSessionOp(f.ctx, viewer, second.session.id);
    expect(await refusal(endSessionOp(f.ctx, viewer, second.session.id))).toMatchObject({ code: 'NOT_FOUND' });
    const stranger = await f.member('viewer');
    expect(await refusal(endSessionOp(f.ctx, stranger, third.session.id))).toMatchObject({ code: 'NOT_FOUND' });

    expect(await endAllSessionsOp(f.ctx, viewer, EndAllSessionsRequest.parse({ keepCurrent: true }))).toEqual({ ended: 1 });
    expect(await validateSession(f.store, viewer.token, f.clock.now)).toBeDefined();
    expect(await endAllSessionsOp(f.ctx, viewer, EndAllSessionsRequest.parse({}))).toEqual({ ended: 1 });
    expect(await validateSession(f.store, viewer.token, f.clock.now)).toBeUndefined();
  });

  it('changes the password: checks the current one, rotates this session, ends the others', async () => {
    const dev = await f.member('developer');
    const other = await f.session(dev.user.id);
    expect(
      await refusal(changePasswordOp(f.ctx, dev, { currentPassword: 'wrong one here', newPassword: 'a brand new password' })),
    ).toMatchObject({
      code: 'INVALID_INPUT',
      details: 'field: currentPassword',
    });
    expect(await refusal(changePasswordOp(f.ctx, dev, { currentPassword: PASSWORD, newPassword: 'short' }))).toMatchObject({
      details: 'field: newPassword',
    });
    const changed = await changePasswordOp(f.ctx, dev, { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(changed.body.session.id).toBe(dev.session.id);
    expect(changed.session.token).not.toBe(dev.token);
    expect(await validateSession(f.store, dev.token, f.clock.now)).toBeUndefined();
    expect(await validateSession(f.store, other.token, f.clock.now)).toBeUndefined();
    expect((await validateSession(f.store, changed.session.token, f.clock.now))?.session.id).toBe(dev.session.id);
    expect((await signInOp(f.ctx, { email: dev.user.email, password: 'a brand new password' }, client)).body.user.id).toBe(dev.user.id);
  });

  it('throttles wrong current passwords like sign-ins', async () => {
    const dev = await f.member('developer');
    for (let i = 0; i < f.ctx.settings.throttle.maxPerEmail; i++) {
      await refusal(changePasswordOp(f.ctx, dev, { currentPassword: `wrong ${i} guess here`, newPassword: 'a brand new password' }));
    }
    expect(await refusal(changePasswordOp(f.ctx, dev, { currentPassword: PASSWORD, newPassword: 'a brand new password' }))).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
    });
  });

  it('signs out: the session ends, an unknown cookie is fine', async () => {
    const viewer = await f.member('viewer');
    await signOutOp(f.ctx, viewer.token);
    expect(await validateSession(f.store, viewer.token, f.clock.now)).toBeUndefined();
    expect(await signOutOp(f.ctx, undefined)).toEqual({ ok: true });
  });
});
