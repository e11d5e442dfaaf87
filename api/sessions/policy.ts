/**
 * Who may do what in an account: one table of role → actions, the only place roles are
 * interpreted (docs/decisions.md "Dashboard and accounts"). A viewer reads; a developer also makes
 * and manages development and client keys; an admin does everything in the account except making
 * or unmaking owners; an owner does everything. Everyone manages their own sessions and password,
 * and may end OAuth consents they gave themselves (not in this table: they act on their own).
 */
import { ServiceError } from '../../shared/errors.js';
import type { Role } from '../../shared/store/dashboard-types.js';
import type { KeyType } from '../../shared/store/types.js';

export const ACTIONS = [
  'account.read',
  'usage.read',
  'sandbox.read',
  'keys.read',
  'keys.manage.production',
  'keys.manage.development',
  'keys.manage.read_only',
  'keys.manage.client',
  'account.ip_allowlist',
  'oauth_apps.read',
  'oauth_apps.manage',
  'grants.read',
  'grants.revoke_any',
  'oauth.consent',
  'members.read',
  'members.manage',
  'members.manage_owners',
  'jwt_keys.read',
  'jwt_keys.manage',
  'webhooks.read',
  'webhooks.manage',
] as const;
export type Action = (typeof ACTIONS)[number];

const READ: readonly Action[] = [
  'account.read',
  'usage.read',
  'sandbox.read',
  'keys.read',
  'oauth_apps.read',
  'grants.read',
  'members.read',
  'jwt_keys.read',
  'webhooks.read',
];
const DEVELOP: readonly Action[] = [...READ, 'keys.manage.development', 'keys.manage.client'];
const ADMINISTER: readonly Action[] = [
  ...DEVELOP,
  'keys.manage.production',
  'keys.manage.read_only',
  'account.ip_allowlist',
  'oauth_apps.manage',
  'grants.revoke_any',
  // Consent hands an application production-strength access to the account, so it is an admin's act.
  'oauth.consent',
  'members.manage',
  'jwt_keys.manage',
  'webhooks.manage',
];

export const ROLE_ACTIONS: { readonly [R in Role]: ReadonlySet<Action> } = {
  viewer: new Set(READ),
  developer: new Set(DEVELOP),
  admin: new Set(ADMINISTER),
  owner: new Set([...ADMINISTER, 'members.manage_owners']),
};

export function can(role: Role, action: Action): boolean {
  return ROLE_ACTIONS[role].has(action);
}

/** The action that creating, revoking, rolling or editing a key of `type` needs. */
export function keyAction(type: KeyType): Action {
  return `keys.manage.${type}`;
}

const DENIALS: Partial<Record<Action, string>> = {
  'keys.manage.production': 'Only admins and owners manage production keys',
  'keys.manage.read_only': 'Only admins and owners manage read-only keys',
  'keys.manage.development': 'Viewers cannot manage keys',
  'keys.manage.client': 'Viewers cannot manage keys',
  'members.manage_owners': 'Only owners make or remove owners',
  'oauth.consent': 'Only admins and owners can authorize applications for the account',
};

/** Throws FORBIDDEN with a message naming what the role lacks. */
export function assertCan(role: Role, action: Action): void {
  if (can(role, action)) return;
  throw new ServiceError('FORBIDDEN', {
    message: DENIALS[action] ?? 'Your role in this account does not allow this',
    details: `action: ${action}; role: ${role}`,
  });
}
