/** Signing in and out, one-time links, the signed-in person, their sessions and password. */
import { Id, Plan, Role, Timestamp, z } from './common.js';

export const SignInRequest = z
  .object({ email: z.string().min(1).max(254), password: z.string().min(1).max(1024) })
  .openapi('MgmtSignInRequest');

export const User = z
  .object({ id: Id, email: z.string(), name: z.string(), passwordChangedAt: Timestamp.nullable(), createdAt: Timestamp })
  .openapi('MgmtUser');

export const Membership = z.object({ accountId: Id, accountName: z.string(), plan: Plan, role: Role }).openapi('MgmtMembership');

/** The answer to sign-in, to a one-time link and to GET /me: who, where, and the CSRF token for this session. */
export const SessionResponse = z
  .object({
    user: User,
    memberships: z.array(Membership),
    session: z.object({ id: Id, expiresAt: Timestamp }),
    /** Send it back in X-CSRF-Token on every POST, PATCH, PUT and DELETE. */
    csrfToken: z.string(),
  })
  .openapi('MgmtSessionResponse');

export const LinkRequest = z.object({ token: z.string().min(1).max(100) }).openapi('MgmtLinkRequest');
export const LinkInfoResponse = z.object({ email: z.string(), purpose: z.enum(['setup', 'reset']) }).openapi('MgmtLinkInfoResponse');
export const SetPasswordRequest = z
  .object({ token: z.string().min(1).max(100), password: z.string().max(1024) })
  .openapi('MgmtSetPasswordRequest');

export const ChangePasswordRequest = z
  .object({ currentPassword: z.string().max(1024), newPassword: z.string().max(1024) })
  .openapi('MgmtChangePasswordRequest');

export const SessionView = z
  .object({
    id: Id,
    createdAt: Timestamp,
    lastSeenAt: Timestamp,
    expiresAt: Timestamp,
    userAgent: z.string(),
    address: z.string(),
    current: z.boolean(),
  })
  .openapi('MgmtSession');
export const SessionListResponse = z.object({ sessions: z.array(SessionView) }).openapi('MgmtSessionList');
export const SessionParams = z.object({ sessionId: Id });
export const EndAllSessionsRequest = z.object({ keepCurrent: z.boolean().default(false) }).openapi('MgmtEndAllSessionsRequest');
export const EndAllSessionsResponse = z.object({ ended: z.number().int().min(0) }).openapi('MgmtEndAllSessionsResponse');

export type SignInRequest = z.infer<typeof SignInRequest>;
export type SessionResponse = z.infer<typeof SessionResponse>;
export type LinkRequest = z.infer<typeof LinkRequest>;
export type LinkInfoResponse = z.infer<typeof LinkInfoResponse>;
export type SetPasswordRequest = z.infer<typeof SetPasswordRequest>;
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
export type SessionView = z.infer<typeof SessionView>;
export type SessionListResponse = z.infer<typeof SessionListResponse>;
export type EndAllSessionsRequest = z.infer<typeof EndAllSessionsRequest>;
export type EndAllSessionsResponse = z.infer<typeof EndAllSessionsResponse>;
