/** The account's authorized applications (people's OAuth consents): listed to every member; ended by admins, or by whoever gave them. */
import { ServiceError } from '../../../shared/errors.js';
import { assertCan } from '../../sessions/policy.js';
import { OK, type Ok } from '../schemas/common.js';
import type { GrantListResponse } from '../schemas/oauth.js';
import type { Actor, ManagementContext } from './context.js';
import { grantView } from './views.js';

export async function listGrantsOp(ctx: ManagementContext, actor: Actor): Promise<GrantListResponse> {
  assertCan(actor.role, 'grants.read');
  return { grants: (await ctx.store.oauthGrants.list(actor.account.id)).map(grantView) };
}

/** Ends the consent: its codes and tokens stop working at once. */
export async function revokeGrantOp(ctx: ManagementContext, actor: Actor, grantId: string): Promise<Ok> {
  const grant = await ctx.store.oauthGrants.get(grantId);
  if (!grant || grant.accountId !== actor.account.id) throw new ServiceError('NOT_FOUND', { message: 'No such authorization' });
  // Anyone may take back a consent they gave; ending someone else's is an admin's act.
  if (grant.userId !== actor.user.id) assertCan(actor.role, 'grants.revoke_any');
  await ctx.store.oauthGrants.revoke(grant.id);
  return OK;
}
