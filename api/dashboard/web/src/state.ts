/** Who is signed in and which account the pages show; kept in memory only (the cookie is the session). */
import type { SessionResponse } from '../../../management/schemas/auth.js';
import { setCsrfToken } from './api.js';

let session: SessionResponse | undefined;

export function setSession(next: SessionResponse | undefined): void {
  session = next;
  setCsrfToken(next?.csrfToken);
}

export function currentSession(): SessionResponse | undefined {
  return session;
}

/** The account named by ?account=, else the person's first. */
export function currentMembership(): SessionResponse['memberships'][number] | undefined {
  if (!session) return undefined;
  const wanted = new URLSearchParams(location.search).get('account');
  return session.memberships.find((m) => m.accountId === wanted) ?? session.memberships[0];
}

/** Roles allowed an action, mirroring the server's policy table (the server decides; this only hides buttons). */
export function roleAtLeast(role: 'owner' | 'admin' | 'developer' | 'viewer'): boolean {
  const order = ['viewer', 'developer', 'admin', 'owner'];
  const mine = currentMembership()?.role;
  return mine !== undefined && order.indexOf(mine) >= order.indexOf(role);
}
