/**
 * Row → record mappers shared by the Kysely stores: rows become the domain types of types.ts and
 * dashboard-types.ts here and nowhere else; timestamps cross as epoch milliseconds.
 */
import type { Selectable } from 'kysely';
import type { OAuthClientRecord } from './oauth-server-types.js';
import type { AccountsTable, ApiKeysTable, OAuthClientsTable } from './schema.js';
import { type Account, type ApiKeyRecord, KEY_TYPES, type KeyType, type NewApiKey, type Plan } from './types.js';

/** The row of a new key; only `keyHash` of the secret reaches it. */
export function newKeyRow(input: NewApiKey & { id: string; prefix: string; keyHash: string }, nowMs: number): Selectable<ApiKeysTable> {
  if (!(KEY_TYPES as readonly string[]).includes(input.type)) throw new RangeError('type: unknown key type');
  return {
    id: input.id,
    account_id: input.accountId,
    prefix: input.prefix,
    key_hash: input.keyHash,
    type: input.type,
    description: input.description,
    allowed_domains: JSON.stringify(input.allowedDomains ?? []),
    created_at: nowMs,
    expires_at: input.expiresAt ? input.expiresAt.getTime() : null,
    revoked_at: null,
    last_used_at: null,
    allowed_ips: JSON.stringify(input.allowedIps ?? []),
    replaced_by: null,
  };
}

export function toAccount(row: Selectable<AccountsTable>): Account {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    createdAt: toDate(row.created_at),
    allowedIps: parseStringArray(row.allowed_ips),
  };
}

export function toKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    prefix: row.prefix,
    type: row.type as KeyType,
    description: row.description,
    allowedDomains: parseStringArray(row.allowed_domains),
    createdAt: toDate(row.created_at),
    expiresAt: toNullableDate(row.expires_at),
    revokedAt: toNullableDate(row.revoked_at),
    lastUsedAt: toNullableDate(row.last_used_at),
    allowedIps: parseStringArray(row.allowed_ips),
    replacedBy: row.replaced_by,
  };
}

/** The row of a new OAuth client (the dashboard's apps and the admin CLI's clients are the same rows). */
export function newOAuthClientRow(
  input: { id: string; accountId: string; name: string; redirectUris: string[]; secretHash: string | null },
  nowMs: number,
): Selectable<OAuthClientsTable> {
  return {
    id: input.id,
    secret_hash: input.secretHash,
    name: input.name,
    redirect_uris: JSON.stringify(input.redirectUris),
    account_id: input.accountId,
    created_at: nowMs,
  };
}

export function toOAuthClient(row: Selectable<OAuthClientsTable>): OAuthClientRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    redirectUris: parseStringArray(row.redirect_uris),
    isPublic: row.secret_hash === null,
    createdAt: toDate(row.created_at),
  };
}

/** A JSON array column of strings; anything else in it reads as empty. */
export function parseStringArray(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((d): d is string => typeof d === 'string') : [];
}

/** Space-separated scopes → list (no empty entries). */
export function splitScope(scope: string): string[] {
  return scope.split(' ').filter((s) => s !== '');
}

// Number(): belt and braces should a driver ever hand back an int8 as a string.
export function toDate(ms: number): Date {
  return new Date(Number(ms));
}

export function toNullableDate(ms: number | null): Date | null {
  return ms === null ? null : new Date(Number(ms));
}
