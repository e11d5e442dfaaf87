/**
 * API keys in the dashboard (docs/api.md "Key states": create shows the key once; revoke is for
 * good). The role decides by the key's type (api/sessions/policy.ts); IP allow-lists need Pro or Enterprise; a
 * roll issues a new key with the same settings and lets the old one work until the grace ends.
 * Every change to a key's row drops this process's cached principal of it (forgetApiKey).
 */
import { createApiKey, forgetApiKey, revokeApiKey } from '../../../shared/keys/api-keys.js';
import { normalizeAllowedDomains } from '../../../shared/keys/domains.js';
import { displayPrefix, generateApiKey, hashApiKey } from '../../../shared/keys/format.js';
import { invalidInput, ServiceError } from '../../../shared/errors.js';
import type { ApiKeyRecord, KeyChanges } from '../../../shared/store/types.js';
import { randomUUID } from 'node:crypto';
import { assertAllowListPlan, normalizeAllowList } from '../../../shared/keys/ip-allowlist.js';
import { assertCan, keyAction } from '../../sessions/policy.js';
import type {
  CreatedKeyResponse,
  CreateKeyRequest,
  KeyListResponse,
  RolledKeyResponse,
  RollKeyRequest,
  UpdateKeyRequest,
  ApiKeyView,
} from '../schemas/keys.js';
import type { Actor, ManagementContext } from './context.js';
import { keyView } from './views.js';

const MAX_DESCRIPTION_LENGTH = 200;

export async function listKeysOp(ctx: ManagementContext, actor: Actor): Promise<KeyListResponse> {
  assertCan(actor.role, 'keys.read');
  const now = ctx.now();
  const keys = await ctx.store.listKeys(actor.account.id);
  // Newest first: the key just made is at the top.
  return { keys: keys.reverse().map((k) => keyView(k, now)) };
}

export async function createKeyOp(ctx: ManagementContext, actor: Actor, input: CreateKeyRequest): Promise<CreatedKeyResponse> {
  assertCan(actor.role, keyAction(input.type));
  const allowedIps = normalizeAllowList(input.allowedIps);
  assertAllowListPlan(actor.account.plan, allowedIps);
  const now = ctx.now();
  const { record, secret } = await createApiKey(
    ctx.store,
    {
      accountId: actor.account.id,
      type: input.type,
      description: input.description,
      allowedDomains: input.allowedDomains,
      allowedIps,
      expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt),
    },
    now,
  );
  return { key: keyView(record, now), secret };
}

/** The account's key `keyId`, after checking the actor may manage keys of its type; 404 for another account's key. */
async function managedKey(ctx: ManagementContext, actor: Actor, keyId: string): Promise<ApiKeyRecord> {
  const key = await ctx.store.getKey(keyId);
  if (!key || key.accountId !== actor.account.id) throw new ServiceError('NOT_FOUND', { message: 'No such key' });
  assertCan(actor.role, keyAction(key.type));
  return key;
}

export async function updateKeyOp(ctx: ManagementContext, actor: Actor, keyId: string, input: UpdateKeyRequest): Promise<ApiKeyView> {
  const key = await managedKey(ctx, actor, keyId);
  if (key.revokedAt) throw invalidInput('keyId', 'A revoked key cannot be changed');
  const changes: KeyChanges = {};
  if (input.description !== undefined) {
    const description = input.description.trim();
    if (description.length === 0 || description.length > MAX_DESCRIPTION_LENGTH) {
      throw invalidInput('description', `Description must be 1 to ${MAX_DESCRIPTION_LENGTH} characters`);
    }
    changes.description = description;
  }
  if (input.allowedDomains !== undefined) {
    const domains = normalizeAllowedDomains(input.allowedDomains);
    if (key.type !== 'client' && domains.length > 0) throw invalidInput('allowedDomains', 'Only client keys have allowed domains');
    if (key.type === 'client' && domains.length === 0) throw invalidInput('allowedDomains', 'Client keys need at least one allowed domain');
    changes.allowedDomains = domains;
  }
  if (input.allowedIps !== undefined) {
    changes.allowedIps = normalizeAllowList(input.allowedIps);
    assertAllowListPlan(actor.account.plan, changes.allowedIps);
  }
  const updated = await ctx.store.keySettings.updateKey(key.id, changes);
  forgetApiKey(ctx.store, key.id);
  if (!updated) throw new ServiceError('NOT_FOUND', { message: 'No such key' });
  return keyView(updated, ctx.now());
}

/** Revokes for good; revoking a revoked key answers its view unchanged. */
export async function revokeKeyOp(ctx: ManagementContext, actor: Actor, keyId: string): Promise<ApiKeyView> {
  const key = await managedKey(ctx, actor, keyId);
  await revokeApiKey(ctx.store, key.id);
  const after = (await ctx.store.getKey(key.id)) ?? key;
  return keyView(after, ctx.now());
}

export async function rollKeyOp(ctx: ManagementContext, actor: Actor, keyId: string, input: RollKeyRequest): Promise<RolledKeyResponse> {
  const key = await managedKey(ctx, actor, keyId);
  const now = ctx.now();
  const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
  if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) throw invalidInput('expiresAt', 'Expiry must be a date in the future');
  const graceMs = input.gracePeriodHours === undefined ? ctx.settings.keyRollGraceMs : input.gracePeriodHours * 3_600_000;
  const secret = generateApiKey();
  const rolled = await ctx.store.keySettings.rollKey(
    key.id,
    {
      id: `key_${randomUUID()}`,
      accountId: key.accountId,
      type: key.type,
      description: key.description,
      allowedDomains: key.allowedDomains,
      allowedIps: key.allowedIps,
      expiresAt,
      prefix: displayPrefix(secret),
      keyHash: hashApiKey(secret),
    },
    new Date(now.getTime() + graceMs),
    now,
  );
  forgetApiKey(ctx.store, key.id);
  if (!rolled) throw invalidInput('keyId', 'Only an active key that has not been rolled already can be rolled');
  return { key: keyView(rolled.replacement, now), previous: keyView(rolled.old, now), secret };
}
