/** An Enterprise account's JWT verification keys: list, add, replace all (rotation), delete. */
import { invalidInput, ServiceError } from '../../../shared/errors.js';
import { parseJwtKeyMaterial } from '../../auth/jwt-keys.js';
import { assertCan } from '../../sessions/policy.js';
import { OK, type Ok } from '../schemas/common.js';
import type { AddJwtKeysRequest, JwtKeyListResponse } from '../schemas/jwt.js';
import type { Actor, ManagementContext } from './context.js';
import { jwtKeyView } from './views.js';

/** At most this many keys per account: enough for a rotation overlap across several signers. */
export const MAX_JWT_KEYS = 20;

function assertEnterprise(actor: Actor): void {
  if (actor.account.plan !== 'enterprise') {
    throw new ServiceError('FORBIDDEN', {
      message: 'JSON Web Tokens are available on the Enterprise plan',
      details: `plan: ${actor.account.plan}`,
    });
  }
}

export async function listJwtKeysOp(ctx: ManagementContext, actor: Actor): Promise<JwtKeyListResponse> {
  assertCan(actor.role, 'jwt_keys.read');
  const keys = await ctx.store.jwtKeys.list(actor.account.id);
  return { keys: keys.map(jwtKeyView), issuer: actor.account.id, audience: ctx.settings.jwtAudience };
}

export async function addJwtKeysOp(ctx: ManagementContext, actor: Actor, input: AddJwtKeysRequest): Promise<JwtKeyListResponse> {
  assertCan(actor.role, 'jwt_keys.manage');
  assertEnterprise(actor);
  const keys = parseJwtKeyMaterial(input);
  const existing = await ctx.store.jwtKeys.list(actor.account.id);
  if (existing.length + keys.length > MAX_JWT_KEYS)
    throw invalidInput('material', `An account holds at most ${MAX_JWT_KEYS} keys; delete one first`);
  if (!(await ctx.store.jwtKeys.add(actor.account.id, keys)))
    throw invalidInput('kid', 'A key with this kid exists already; delete it or replace all keys');
  return listJwtKeysOp(ctx, actor);
}

/** Rotation: the pasted keys replace every key of the account at once; tokens signed with the old ones stop working. */
export async function replaceJwtKeysOp(ctx: ManagementContext, actor: Actor, input: AddJwtKeysRequest): Promise<JwtKeyListResponse> {
  assertCan(actor.role, 'jwt_keys.manage');
  assertEnterprise(actor);
  const keys = parseJwtKeyMaterial(input);
  if (keys.length > MAX_JWT_KEYS) throw invalidInput('material', `An account holds at most ${MAX_JWT_KEYS} keys`);
  await ctx.store.jwtKeys.replaceAll(actor.account.id, keys);
  return listJwtKeysOp(ctx, actor);
}

export async function deleteJwtKeyOp(ctx: ManagementContext, actor: Actor, kid: string): Promise<Ok> {
  assertCan(actor.role, 'jwt_keys.manage');
  if (!(await ctx.store.jwtKeys.delete(actor.account.id, kid))) throw new ServiceError('NOT_FOUND', { message: 'No such key' });
  return OK;
}
