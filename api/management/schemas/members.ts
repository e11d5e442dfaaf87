/** People of the account and their roles. Links are shown once, to the admin who asked for them. */
import { Id, Role, Timestamp, z } from './common.js';

export const MemberView = z
  .object({ userId: Id, email: z.string(), name: z.string(), role: Role, hasPassword: z.boolean(), since: Timestamp, you: z.boolean() })
  .openapi('MgmtMember');
export const MemberListResponse = z.object({ members: z.array(MemberView) }).openapi('MgmtMemberList');
export const MemberParams = z.object({ accountId: Id, userId: Id });

export const InviteMemberRequest = z
  .object({ email: z.string().min(3).max(254), name: z.string().max(100).default(''), role: Role })
  .openapi('MgmtInviteMemberRequest');
/** `setupLink`: for a person without a password; hand it to them (it is shown once and lasts 24 hours). */
export const InvitedMemberResponse = z
  .object({ member: MemberView, setupLink: z.object({ url: z.string(), expiresAt: Timestamp }).nullable() })
  .openapi('MgmtInvitedMember');

export const UpdateMemberRequest = z.object({ role: Role }).openapi('MgmtUpdateMemberRequest');
export const ResetLinkResponse = z.object({ url: z.string(), expiresAt: Timestamp }).openapi('MgmtResetLink');

export type MemberView = z.infer<typeof MemberView>;
export type MemberListResponse = z.infer<typeof MemberListResponse>;
export type InviteMemberRequest = z.infer<typeof InviteMemberRequest>;
export type InvitedMemberResponse = z.infer<typeof InvitedMemberResponse>;
export type UpdateMemberRequest = z.infer<typeof UpdateMemberRequest>;
export type ResetLinkResponse = z.infer<typeof ResetLinkResponse>;
