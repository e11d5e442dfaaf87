/**
 * Operations without an account: signing in and out, one-time links, and the signed-in person's own
 * session, sessions list and password. An operation that starts or rotates a session returns the
 * new token beside the body, for the HTTP layer to set as the cookie.
 */
import { hashToken, isToken } from '../../../shared/accounts/secret-tokens.js';
import { invalidInput, ServiceError } from '../../../shared/errors.js';
import type { SessionRecord, UserRecord } from '../../../shared/store/dashboard-types.js';
import { csrfToken } from '../../sessions/csrf.js';
import { hashPassword, validateNewPassword, verifyPassword } from '../../sessions/passwords.js';
import type {
  ChangePasswordRequest,
  EndAllSessionsRequest,
  EndAllSessionsResponse,
  LinkInfoResponse,
  LinkRequest,
  SessionListResponse,
  SessionResponse,
  SetPasswordRequest,
  SignInRequest,
} from '../schemas/auth.js';
import { OK, type Ok } from '../schemas/common.js';
import type { ClientInfo } from '../../sessions/request-session.js';
import { type ActiveSession, endSessionByToken, issueSession, rotateSession } from '../../sessions/sessions.js';
import { emailSubject, signIn } from '../../sessions/sign-in.js';
import type { ManagementContext } from './context.js';
import { iso, sessionView, userView } from './views.js';

export interface WithSession<T> {
  body: T;
  /** Set as the session cookie. */
  session: { token: string; expiresAt: Date };
}

const LINK_REFUSED = 'This link is not valid any more: it was used, replaced by a newer one, or is older than 24 hours';

async function sessionResponse(ctx: ManagementContext, user: UserRecord, session: SessionRecord, token: string): Promise<SessionResponse> {
  const memberships = await ctx.store.users.listMemberships(user.id);
  return {
    user: userView(user),
    memberships: memberships.map((m) => ({
      accountId: m.accountId,
      accountName: m.accountName,
      plan: m.plan as SessionResponse['memberships'][number]['plan'],
      role: m.role,
    })),
    session: { id: session.id, expiresAt: iso(session.expiresAt) },
    csrfToken: csrfToken(token, session.id),
  };
}

export async function signInOp(ctx: ManagementContext, input: SignInRequest, client: ClientInfo): Promise<WithSession<SessionResponse>> {
  const { settings } = ctx;
  const issued = await signIn(
    ctx.store,
    { email: input.email, password: input.password, address: client.address, userAgent: client.userAgent, now: ctx.now() },
    { throttle: settings.throttle, session: settings.session },
  );
  // A cookie the browser brought is never adopted; the session it named (if any) ends here.
  if (client.previousToken !== undefined) await endSessionByToken(ctx.store, client.previousToken);
  return {
    body: await sessionResponse(ctx, issued.user, issued.session, issued.token),
    session: { token: issued.token, expiresAt: issued.session.expiresAt },
  };
}

export async function signOutOp(ctx: ManagementContext, token: string | undefined): Promise<Ok> {
  await endSessionByToken(ctx.store, token);
  return OK;
}

export async function linkInfoOp(ctx: ManagementContext, input: LinkRequest): Promise<LinkInfoResponse> {
  const link = isToken('link', input.token) ? await ctx.store.oneTimeLinks.peek(hashToken(input.token), ctx.now()) : undefined;
  const user = link && (await ctx.store.users.getUser(link.userId));
  if (!link || !user) throw new ServiceError('NOT_FOUND', { message: LINK_REFUSED });
  return { email: user.email, purpose: link.purpose };
}

/**
 * Sets a password through a one-time link, ends every other session of the person (a reset means
 * the old password may be known to someone else) and signs them in.
 */
export async function setPasswordOp(
  ctx: ManagementContext,
  input: SetPasswordRequest,
  client: ClientInfo,
): Promise<WithSession<SessionResponse>> {
  const password = validateNewPassword(input.password);
  const now = ctx.now();
  const hash = await hashPassword(password);
  const link = isToken('link', input.token) ? await ctx.store.oneTimeLinks.consume(hashToken(input.token), now) : undefined;
  const user = link && (await ctx.store.users.getUser(link.userId));
  if (!link || !user) throw new ServiceError('NOT_FOUND', { message: LINK_REFUSED });
  await ctx.store.users.setPasswordHash(user.id, hash, now);
  await ctx.store.sessions.endAll(user.id);
  const issued = await issueSession(ctx.store, {
    userId: user.id,
    userAgent: client.userAgent,
    address: client.address,
    now,
    policy: ctx.settings.session,
  });
  const updated = (await ctx.store.users.getUser(user.id)) ?? user;
  return {
    body: await sessionResponse(ctx, updated, issued.session, issued.token),
    session: { token: issued.token, expiresAt: issued.session.expiresAt },
  };
}

export function meOp(ctx: ManagementContext, active: ActiveSession): Promise<SessionResponse> {
  return sessionResponse(ctx, active.user, active.session, active.token);
}

export async function listSessionsOp(ctx: ManagementContext, active: ActiveSession): Promise<SessionListResponse> {
  const sessions = await ctx.store.sessions.list(active.user.id, ctx.now());
  return { sessions: sessions.map((s) => sessionView(s, active.session.id)) };
}

export async function endSessionOp(ctx: ManagementContext, active: ActiveSession, sessionId: string): Promise<Ok> {
  if (!(await ctx.store.sessions.end(active.user.id, sessionId))) throw new ServiceError('NOT_FOUND', { message: 'No such session' });
  return OK;
}

/** "Sign out everywhere": every session of the person, or every other one with keepCurrent. */
export async function endAllSessionsOp(
  ctx: ManagementContext,
  active: ActiveSession,
  input: EndAllSessionsRequest,
): Promise<EndAllSessionsResponse> {
  const ended = await ctx.store.sessions.endAll(active.user.id, input.keepCurrent ? active.session.id : undefined);
  return { ended };
}

/**
 * Changes the password after checking the current one (wrong guesses count against the email's
 * sign-in throttle), ends the person's other sessions and rotates this one's token.
 */
export async function changePasswordOp(
  ctx: ManagementContext,
  active: ActiveSession,
  input: ChangePasswordRequest,
): Promise<WithSession<SessionResponse>> {
  const now = ctx.now();
  const { throttle } = ctx.settings;
  const subject = emailSubject(active.user.email);
  const state = (await ctx.store.signInThrottle.get([subject], throttle.windowMs, now)).get(subject);
  if (state && state.failures >= throttle.maxPerEmail) {
    throw new ServiceError('RATE_LIMIT_EXCEEDED', { message: 'Too many wrong passwords; try again later' });
  }
  const stored = await ctx.store.users.getPasswordHash(active.user.id);
  if (!stored || !(await verifyPassword(input.currentPassword, stored))) {
    await ctx.store.signInThrottle.recordFailure(subject, throttle.windowMs, now);
    throw invalidInput('currentPassword', 'The current password is not right');
  }
  const next = validateNewPassword(input.newPassword, 'newPassword');
  await ctx.store.users.setPasswordHash(active.user.id, await hashPassword(next), now);
  await ctx.store.sessions.endAll(active.user.id, active.session.id);
  const rotated = await rotateSession(ctx.store, active.session, now);
  if (!rotated) throw new ServiceError('UNAUTHORIZED', { message: 'The session ended; sign in again' });
  const user = (await ctx.store.users.getUser(active.user.id)) ?? active.user;
  return {
    body: await sessionResponse(ctx, user, rotated.session, rotated.token),
    session: { token: rotated.token, expiresAt: rotated.session.expiresAt },
  };
}
