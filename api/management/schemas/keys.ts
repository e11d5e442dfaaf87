/** API keys as the dashboard shows and changes them. The secret appears in exactly two answers: create and roll. */
import { AllowedIps, Id, KeyType, Timestamp, z } from './common.js';

export const KEY_STATUSES = ['active', 'rolling', 'expired', 'revoked'] as const;

export const ApiKeyView = z
  .object({
    id: Id,
    prefix: z.string().openapi({ description: 'The non-secret start of the key, e.g. s224_AbC12xY' }),
    type: KeyType,
    description: z.string(),
    allowedDomains: z.array(z.string()),
    allowedIps: z.array(z.string()),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    /** rolling: replaced by a roll, still working until expiresAt. */
    status: z.enum(KEY_STATUSES),
    replacedBy: Id.nullable(),
  })
  .openapi('MgmtApiKey');

export const KeyListResponse = z.object({ keys: z.array(ApiKeyView) }).openapi('MgmtKeyList');
export const KeyParams = z.object({ accountId: Id, keyId: Id });

export const CreateKeyRequest = z
  .object({
    type: KeyType,
    description: z.string().min(1).max(200),
    allowedDomains: z.array(z.string().max(253)).max(50).default([]),
    allowedIps: AllowedIps.default([]),
    expiresAt: Timestamp.nullable().default(null),
  })
  .openapi('MgmtCreateKeyRequest');

/** Shown once: the full key. It is not stored and cannot be shown again. */
export const CreatedKeyResponse = z.object({ key: ApiKeyView, secret: z.string() }).openapi('MgmtCreatedKey');

export const UpdateKeyRequest = z
  .object({
    description: z.string().min(1).max(200).optional(),
    allowedDomains: z.array(z.string().max(253)).max(50).optional(),
    allowedIps: AllowedIps.optional(),
  })
  .openapi('MgmtUpdateKeyRequest');

export const RollKeyRequest = z
  .object({
    /** How long the old key keeps working beside the new one; default KEY_ROLL_GRACE_HOURS. */
    gracePeriodHours: z
      .number()
      .int()
      .min(0)
      .max(24 * 30)
      .optional(),
    expiresAt: Timestamp.nullable().default(null),
  })
  .openapi('MgmtRollKeyRequest');

export const RolledKeyResponse = z.object({ key: ApiKeyView, previous: ApiKeyView, secret: z.string() }).openapi('MgmtRolledKey');

export type ApiKeyView = z.infer<typeof ApiKeyView>;
export type KeyListResponse = z.infer<typeof KeyListResponse>;
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;
export type CreatedKeyResponse = z.infer<typeof CreatedKeyResponse>;
export type UpdateKeyRequest = z.infer<typeof UpdateKeyRequest>;
export type RollKeyRequest = z.infer<typeof RollKeyRequest>;
export type RolledKeyResponse = z.infer<typeof RolledKeyResponse>;
