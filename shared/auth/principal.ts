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
}

/** What a request needs; a key type or token permission grants some of these. */
export type Permission = 'hash' | 'verify' | 'read' | 'jobs';

/**
 * SPEC "API key" types → permissions. Read-only keys may only read (usage, status, job results);
 * client keys may only hash and verify (issue 2 §5).
 */
export const KEY_TYPE_PERMISSIONS: { readonly [T in KeyType]: readonly Permission[] } = {
  production: ['hash', 'verify', 'read', 'jobs'],
  development: ['hash', 'verify', 'read', 'jobs'],
  read_only: ['read', 'jobs'],
  client: ['hash', 'verify'],
};

/**
 * Token permission names (SPEC "Authentication" rule 7 shows hash:create and hash:verify; the
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
