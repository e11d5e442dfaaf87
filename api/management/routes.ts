/**
 * The management API's routes: method and path of every operation, below MANAGEMENT_BASE. Plain
 * data importing only plain data (the webhook routes), so the dashboard's browser code and the
 * server's route table read the same list; the schemas of each route are in contract.ts. Paths use OpenAPI's `{name}` parameters.
 */
import { WEBHOOK_ROUTES } from './webhooks/routes.js';

export const MANAGEMENT_BASE = '/dashboard/api';

export const MANAGEMENT_ROUTES = {
  signIn: { method: 'POST', path: '/session' },
  signOut: { method: 'DELETE', path: '/session' },
  linkInfo: { method: 'POST', path: '/links/inspect' },
  setPassword: { method: 'POST', path: '/links/set-password' },
  me: { method: 'GET', path: '/me' },
  changePassword: { method: 'POST', path: '/me/password' },
  listSessions: { method: 'GET', path: '/me/sessions' },
  endSession: { method: 'DELETE', path: '/me/sessions/{sessionId}' },
  endAllSessions: { method: 'POST', path: '/me/sessions/end-all' },
  accountOverview: { method: 'GET', path: '/accounts/{accountId}' },
  setAccountIpAllowList: { method: 'PUT', path: '/accounts/{accountId}/ip-allowlist' },
  listKeys: { method: 'GET', path: '/accounts/{accountId}/keys' },
  createKey: { method: 'POST', path: '/accounts/{accountId}/keys' },
  updateKey: { method: 'PATCH', path: '/accounts/{accountId}/keys/{keyId}' },
  revokeKey: { method: 'POST', path: '/accounts/{accountId}/keys/{keyId}/revoke' },
  rollKey: { method: 'POST', path: '/accounts/{accountId}/keys/{keyId}/roll' },
  usage: { method: 'GET', path: '/accounts/{accountId}/usage' },
  usageCsv: { method: 'GET', path: '/accounts/{accountId}/usage.csv' },
  sandbox: { method: 'GET', path: '/accounts/{accountId}/sandbox' },
  listOAuthApps: { method: 'GET', path: '/accounts/{accountId}/oauth-apps' },
  registerOAuthApp: { method: 'POST', path: '/accounts/{accountId}/oauth-apps' },
  updateOAuthApp: { method: 'PATCH', path: '/accounts/{accountId}/oauth-apps/{clientId}' },
  rotateOAuthSecret: { method: 'POST', path: '/accounts/{accountId}/oauth-apps/{clientId}/rotate-secret' },
  deleteOAuthApp: { method: 'DELETE', path: '/accounts/{accountId}/oauth-apps/{clientId}' },
  listGrants: { method: 'GET', path: '/accounts/{accountId}/grants' },
  revokeGrant: { method: 'DELETE', path: '/accounts/{accountId}/grants/{grantId}' },
  listMembers: { method: 'GET', path: '/accounts/{accountId}/members' },
  inviteMember: { method: 'POST', path: '/accounts/{accountId}/members' },
  updateMember: { method: 'PATCH', path: '/accounts/{accountId}/members/{userId}' },
  removeMember: { method: 'DELETE', path: '/accounts/{accountId}/members/{userId}' },
  memberResetLink: { method: 'POST', path: '/accounts/{accountId}/members/{userId}/reset-link' },
  listJwtKeys: { method: 'GET', path: '/accounts/{accountId}/jwt-keys' },
  addJwtKeys: { method: 'POST', path: '/accounts/{accountId}/jwt-keys' },
  replaceJwtKeys: { method: 'PUT', path: '/accounts/{accountId}/jwt-keys' },
  deleteJwtKey: { method: 'DELETE', path: '/accounts/{accountId}/jwt-keys/{kid}' },
  ...WEBHOOK_ROUTES,
} as const;

export type RouteName = keyof typeof MANAGEMENT_ROUTES;
export type RouteMethod = (typeof MANAGEMENT_ROUTES)[RouteName]['method'];

/** The request header carrying the session's CSRF token (api/sessions/csrf.ts). */
export const CSRF_HEADER_NAME = 'X-CSRF-Token';

/** A route's path with its parameters filled in (each percent-encoded), below MANAGEMENT_BASE. */
export function routePath(name: RouteName, params: Readonly<Record<string, string>> = {}): string {
  const path = MANAGEMENT_ROUTES[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new TypeError(`${name}: missing path parameter ${key}`);
    return encodeURIComponent(value);
  });
  return MANAGEMENT_BASE + path;
}
