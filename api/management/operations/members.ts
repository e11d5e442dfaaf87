/**
 * Members of an account and their roles (api/sessions/policy.ts). Rules beyond the table:
 *  - only owners make, unmake or otherwise touch owners; an account always keeps one owner;
 *  - a member may leave an account (remove themselves) unless they are its last owner;
 *  - a role that may no longer consent to OAuth applications ends the consents the person gave;
 *  - one-time links (setup, reset) are handed out here only for people whose every membership is in
 *    this account: a link sets the password of the person everywhere, so an admin of one account
 *    must not be able to take over a member of another. Operators issue any link with the CLI.
 */
import { issueOneTimeLink } from '../../../shared/accounts/one-time-links.js';
import { addPersonToAccount, validateEmail } from '../../../shared/accounts/people.js';
import { invalidInput, ServiceError } from '../../../shared/errors.js';
import type { MembershipRecord, Role } from '../../../shared/store/dashboard-types.js';
import { assertCan, can } from '../../sessions/policy.js';
import { OK, type Ok } from '../schemas/common.js';
import type {
  InvitedMemberResponse,
  InviteMemberRequest,
  MemberListResponse,
  MemberView,
  ResetLinkResponse,
  UpdateMemberRequest,
} from '../schemas/members.js';
import type { Actor, ManagementContext } from './context.js';
import { iso, memberView } from './views.js';

export async function listMembersOp(ctx: ManagementContext, actor: Actor): Promise<MemberListResponse> {
  assertCan(actor.role, 'members.read');
  return { members: (await ctx.store.users.listMembers(actor.account.id)).map((m) => memberView(m, actor.user.id)) };
}

/** Whether a link for `userId` may be handed out from this account: all their memberships are here. */
async function onlyHere(ctx: ManagementContext, actor: Actor, userId: string): Promise<boolean> {
  const memberships = await ctx.store.users.listMemberships(userId);
  return memberships.every((m) => m.accountId === actor.account.id);
}

export async function inviteMemberOp(ctx: ManagementContext, actor: Actor, input: InviteMemberRequest): Promise<InvitedMemberResponse> {
  assertCan(actor.role, 'members.manage');
  if (input.role === 'owner') assertCan(actor.role, 'members.manage_owners');
  const email = validateEmail(input.email);
  const existing = await ctx.store.users.findUserByEmail(email);
  if (existing && (await ctx.store.users.getMembership(actor.account.id, existing.user.id))) {
    throw invalidInput('email', 'This person is already a member of the account');
  }
  const mayLink = !existing || (!existing.user.hasPassword && (await onlyHere(ctx, actor, existing.user.id)));
  const added = await addPersonToAccount(ctx.store, {
    accountId: actor.account.id,
    email,
    name: input.name,
    role: input.role,
    baseUrl: ctx.baseUrl,
    now: ctx.now(),
    setupLink: mayLink,
  });
  const member = (await ctx.store.users.listMembers(actor.account.id)).find((m) => m.userId === added.user.id);
  if (!member) throw new ServiceError('INTERNAL_ERROR', { cause: new Error('member missing after invitation') });
  return {
    member: memberView(member, actor.user.id),
    setupLink: added.setupLink ? { url: added.setupLink.url, expiresAt: iso(added.setupLink.expiresAt) } : null,
  };
}

async function memberOf(ctx: ManagementContext, actor: Actor, userId: string): Promise<MembershipRecord> {
  const membership = await ctx.store.users.getMembership(actor.account.id, userId);
  if (!membership) throw new ServiceError('NOT_FOUND', { message: 'No such member' });
  return membership;
}

async function assertNotLastOwner(ctx: ManagementContext, actor: Actor, target: MembershipRecord): Promise<void> {
  if (target.role === 'owner' && (await ctx.store.users.countOwners(actor.account.id)) <= 1) {
    throw invalidInput('userId', 'An account keeps at least one owner: make someone else an owner first');
  }
}

export async function updateMemberOp(
  ctx: ManagementContext,
  actor: Actor,
  userId: string,
  input: UpdateMemberRequest,
): Promise<MemberView> {
  assertCan(actor.role, 'members.manage');
  const target = await memberOf(ctx, actor, userId);
  if (target.role === 'owner' || input.role === 'owner') assertCan(actor.role, 'members.manage_owners');
  if (input.role !== 'owner') await assertNotLastOwner(ctx, actor, target);
  const role: Role = input.role;
  await ctx.store.users.setRole(actor.account.id, userId, role, { endConsents: !can(role, 'oauth.consent') });
  const member = (await ctx.store.users.listMembers(actor.account.id)).find((m) => m.userId === userId);
  if (!member) throw new ServiceError('NOT_FOUND', { message: 'No such member' });
  return memberView(member, actor.user.id);
}

/** Removes a member (or lets one leave); their consents in the account end with it. */
export async function removeMemberOp(ctx: ManagementContext, actor: Actor, userId: string): Promise<Ok> {
  const target = await memberOf(ctx, actor, userId);
  if (userId !== actor.user.id) {
    assertCan(actor.role, 'members.manage');
    if (target.role === 'owner') assertCan(actor.role, 'members.manage_owners');
  }
  await assertNotLastOwner(ctx, actor, target);
  await ctx.store.users.removeMembership(actor.account.id, userId);
  return OK;
}

/** A password-reset link for a member, to hand over in person (nothing is mailed). */
export async function memberResetLinkOp(ctx: ManagementContext, actor: Actor, userId: string): Promise<ResetLinkResponse> {
  assertCan(actor.role, 'members.manage');
  const target = await memberOf(ctx, actor, userId);
  if (target.role === 'owner') assertCan(actor.role, 'members.manage_owners');
  if (!(await onlyHere(ctx, actor, userId))) {
    throw new ServiceError('FORBIDDEN', {
      message: 'This person also belongs to other accounts; an operator can issue their link (npm run admin -- users reset-link)',
    });
  }
  const link = await issueOneTimeLink(ctx.store, { userId, purpose: 'reset', baseUrl: ctx.baseUrl, now: ctx.now() });
  return { url: link.url, expiresAt: iso(link.expiresAt) };
}
