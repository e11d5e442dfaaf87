/**
 * OAuth applications registered in the dashboard (docs/api.md "Authentication" rule 8), Enterprise only.
 * Client ids and secrets are made and hashed as the OAuth server's own (shared/oauth/tokens.ts);
 * the secret is shown once, at registration or rotation. Rotating a secret leaves issued tokens
 * working (the application needs the new secret at its next refresh); deleting the application
 * deletes its codes, tokens and consents.
 */
import { normalizeRedirectUris } from '../../../shared/oauth/clients.js';
import { generateOAuthSecret, hashOAuthSecret } from '../../../shared/oauth/tokens.js';
import { invalidInput, ServiceError } from '../../../shared/errors.js';
import type { OAuthAppRecord } from '../../../shared/store/dashboard-types.js';
import { assertCan } from '../../sessions/policy.js';
import { OK, type Ok } from '../schemas/common.js';
import type {
  OAuthAppListResponse,
  OAuthAppView,
  RegisteredOAuthAppResponse,
  RegisterOAuthAppRequest,
  RotatedSecretResponse,
  UpdateOAuthAppRequest,
} from '../schemas/oauth.js';
import type { Actor, ManagementContext } from './context.js';
import { appView } from './views.js';

function trimmedName(name: string): string {
  const value = name.trim();
  if (value.length === 0 || value.length > 100) throw invalidInput('name', 'Name must be 1 to 100 characters');
  return value;
}

function assertEnterprise(actor: Actor): void {
  if (actor.account.plan !== 'enterprise') {
    throw new ServiceError('FORBIDDEN', {
      message: 'OAuth applications are available on the Enterprise plan',
      details: `plan: ${actor.account.plan}`,
    });
  }
}

async function ownApp(ctx: ManagementContext, actor: Actor, clientId: string): Promise<OAuthAppRecord> {
  const app = await ctx.store.oauthApps.get(clientId);
  if (!app || app.accountId !== actor.account.id) throw new ServiceError('NOT_FOUND', { message: 'No such application' });
  return app;
}

export async function listOAuthAppsOp(ctx: ManagementContext, actor: Actor): Promise<OAuthAppListResponse> {
  assertCan(actor.role, 'oauth_apps.read');
  return { apps: (await ctx.store.oauthApps.list(actor.account.id)).map(appView) };
}

export async function registerOAuthAppOp(
  ctx: ManagementContext,
  actor: Actor,
  input: RegisterOAuthAppRequest,
): Promise<RegisteredOAuthAppResponse> {
  assertCan(actor.role, 'oauth_apps.manage');
  assertEnterprise(actor);
  const name = trimmedName(input.name);
  const redirectUris = normalizeRedirectUris(input.redirectUris);
  const clientSecret = input.public ? null : generateOAuthSecret('clientSecret');
  const app = await ctx.store.oauthApps.create({
    id: generateOAuthSecret('clientId'),
    accountId: actor.account.id,
    name,
    redirectUris,
    secretHash: clientSecret === null ? null : hashOAuthSecret(clientSecret),
  });
  return { app: appView(app), clientSecret };
}

export async function updateOAuthAppOp(
  ctx: ManagementContext,
  actor: Actor,
  clientId: string,
  input: UpdateOAuthAppRequest,
): Promise<OAuthAppView> {
  assertCan(actor.role, 'oauth_apps.manage');
  await ownApp(ctx, actor, clientId);
  const changes: { name?: string; redirectUris?: string[] } = {};
  if (input.name !== undefined) changes.name = trimmedName(input.name);
  if (input.redirectUris !== undefined) changes.redirectUris = normalizeRedirectUris(input.redirectUris);
  const updated = await ctx.store.oauthApps.update(clientId, changes);
  if (!updated) throw new ServiceError('NOT_FOUND', { message: 'No such application' });
  return appView(updated);
}

export async function rotateOAuthSecretOp(ctx: ManagementContext, actor: Actor, clientId: string): Promise<RotatedSecretResponse> {
  assertCan(actor.role, 'oauth_apps.manage');
  const app = await ownApp(ctx, actor, clientId);
  if (app.isPublic) throw invalidInput('clientId', 'A public application has no secret');
  const clientSecret = generateOAuthSecret('clientSecret');
  await ctx.store.oauthApps.setSecretHash(clientId, hashOAuthSecret(clientSecret));
  return { clientSecret };
}

export async function deleteOAuthAppOp(ctx: ManagementContext, actor: Actor, clientId: string): Promise<Ok> {
  assertCan(actor.role, 'oauth_apps.manage');
  await ownApp(ctx, actor, clientId);
  await ctx.store.oauthApps.delete(clientId);
  return OK;
}
