import type { KeyType, Plan } from '../store/types.js';

/** What an authenticated request acts as, whatever the credential (API key, JWT, OAuth token). */
export interface Principal {
  accountId: string;
  plan: Plan;
  /** The API key's id, or the token's subject for JWT/OAuth. */
  credentialId: string;
  via: 'api_key' | 'jwt' | 'oauth';
  keyType: KeyType;
  /** Client keys: host names the Origin must match. */
  allowedDomains: string[];
  /** JWT/OAuth permissions (e.g. hash:create, hash:verify); undefined for API keys (type decides). */
  permissions?: string[];
  /** API keys: the key's IP allow-list (empty: every address; api/middleware/ip-allowlist.ts). */
  allowedIps?: string[];
  /** The account's IP allow-list when the credential's lookup read it (API keys); looked up otherwise. */
  accountAllowedIps?: string[];
}

/** What a request needs; a key type or token permission grants some of these. */
export type Permission = 'hash' | 'verify' | 'read' | 'jobs';

/**
 * docs/api.md "Resources" types → permissions. Read-only keys may only read (usage, status, job results);
 * client keys may only hash and verify.
 */
export const KEY_TYPE_PERMISSIONS: { readonly [T in KeyType]: readonly Permission[] } = {
  production: ['hash', 'verify', 'read', 'jobs'],
  development: ['hash', 'verify', 'read', 'jobs'],
  read_only: ['read', 'jobs'],
  client: ['hash', 'verify'],
};

/**
 * Token permission names (docs/api.md "Authentication" rule 7 shows hash:create and hash:verify; the
 * other two are this service's, docs/decisions.md).
 */
export const PERMISSION_CLAIMS: { readonly [P in Permission]: string } = {
  hash: 'hash:create',
  verify: 'hash:verify',
  read: 'usage:read',
  jobs: 'jobs:read',
};

export function principalCan(principal: Principal, permission: Permission): boolean {
  if (principal.permissions) return principal.permissions.includes(PERMISSION_CLAIMS[permission]);
  return KEY_TYPE_PERMISSIONS[principal.keyType].includes(permission);
}

/**
 * What a request's count is recorded under in the usage by key (shared/limits/types.ts
 * LimitRequest.credential): the API key's id, `oauth:<client id>`, or `jwt:<kid>` for an account's
 * own JWT key — never a per-token id, so the breakdown stays bounded. Deployment-wide JWTs (signed
 * with JWT_SECRET, no account key) are not attributed.
 */
export function usageCredential(principal: Principal): string | undefined {
  if (principal.via !== 'jwt') return principal.credentialId;
  const [, kid, rest] = principal.credentialId.split(':');
  return rest !== undefined && kid ? `jwt:${kid}` : undefined;
}
