/** The role policy, checked exhaustively against a matrix written out here independently of the code. */
import { describe, expect, it } from 'vitest';
import { ACTIONS, assertCan, can, keyAction, type Action } from '../../api/sessions/policy.js';
import { ServiceError } from '../../shared/errors.js';
import { ROLES, type Role } from '../../shared/store/dashboard-types.js';
import { KEY_TYPES } from '../../shared/store/types.js';

// V viewer, D developer, A admin, O owner: the roles allowed each action.
const MATRIX: Record<Action, string> = {
  'account.read': 'VDAO',
  'usage.read': 'VDAO',
  'sandbox.read': 'VDAO',
  'keys.read': 'VDAO',
  'keys.manage.production': 'AO',
  'keys.manage.development': 'DAO',
  'keys.manage.read_only': 'AO',
  'keys.manage.client': 'DAO',
  'account.ip_allowlist': 'AO',
  'oauth_apps.read': 'VDAO',
  'oauth_apps.manage': 'AO',
  'grants.read': 'VDAO',
  'grants.revoke_any': 'AO',
  'oauth.consent': 'AO',
  'members.read': 'VDAO',
  'members.manage': 'AO',
  'members.manage_owners': 'O',
  'jwt_keys.read': 'VDAO',
  'jwt_keys.manage': 'AO',
  'webhooks.read': 'VDAO',
  'webhooks.manage': 'AO',
};
const LETTER: Record<Role, string> = { viewer: 'V', developer: 'D', admin: 'A', owner: 'O' };

describe('role policy', () => {
  it('lists exactly the actions of the matrix', () => {
    expect([...ACTIONS].sort()).toEqual(Object.keys(MATRIX).sort());
  });

  const cases = ROLES.flatMap((role) => ACTIONS.map((action) => [role, action, MATRIX[action].includes(LETTER[role])] as const));
  it.each(cases)('%s may %s: %s', (role, action, allowed) => {
    expect(can(role, action)).toBe(allowed);
    if (allowed) expect(() => assertCan(role, action)).not.toThrow();
    else expect(() => assertCan(role, action)).toThrow(ServiceError);
  });

  it('refuses with FORBIDDEN naming the action and the role', () => {
    try {
      assertCan('developer', 'keys.manage.production');
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'FORBIDDEN', status: 403, message: 'Only admins and owners manage production keys' });
      expect((err as ServiceError).details).toBe('action: keys.manage.production; role: developer');
    }
    expect(() => assertCan('viewer', 'keys.manage.client')).toThrow('Viewers cannot manage keys');
    expect(() => assertCan('admin', 'members.manage_owners')).toThrow('Only owners make or remove owners');
  });

  it('maps every key type to its manage action', () => {
    expect(KEY_TYPES.map(keyAction)).toEqual([
      'keys.manage.production',
      'keys.manage.development',
      'keys.manage.read_only',
      'keys.manage.client',
    ]);
  });

  it('orders roles by power: each role can do everything the one below it can', () => {
    for (let i = 0; i + 1 < ROLES.length; i++) {
      const [higher, lower] = [ROLES[i]!, ROLES[i + 1]!];
      for (const action of ACTIONS) if (can(lower, action)) expect(can(higher, action), `${higher} ${action}`).toBe(true);
    }
  });
});
