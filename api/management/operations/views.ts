/** Records → the management API's response shapes (dates as ISO strings), in one place. */
import type {
  AccountJwtKeyRecord,
  MemberRecord,
  OAuthAppRecord,
  OAuthGrantRecord,
  SessionRecord,
  UserRecord,
} from '../../../shared/store/dashboard-types.js';
import type { ApiKeyRecord } from '../../../shared/store/types.js';
import type { SessionView, User } from '../schemas/auth.js';
import type { ApiKeyView } from '../schemas/keys.js';
import type { JwtKeyView } from '../schemas/jwt.js';
import type { MemberView } from '../schemas/members.js';
import type { GrantView, OAuthAppView } from '../schemas/oauth.js';
import type { z } from '../schemas/common.js';

export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

export function userView(user: UserRecord): z.infer<typeof User> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    passwordChangedAt: iso(user.passwordChangedAt),
    createdAt: iso(user.createdAt),
  };
}

export function keyStatus(key: ApiKeyRecord, now: Date): ApiKeyView['status'] {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (key.replacedBy) return 'rolling';
  return 'active';
}

export function keyView(key: ApiKeyRecord, now: Date): ApiKeyView {
  return {
    id: key.id,
    prefix: key.prefix,
    type: key.type,
    description: key.description,
    allowedDomains: key.allowedDomains,
    allowedIps: key.allowedIps,
    createdAt: iso(key.createdAt),
    lastUsedAt: iso(key.lastUsedAt),
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    status: keyStatus(key, now),
    replacedBy: key.replacedBy,
  };
}

export function sessionView(session: SessionRecord, currentId: string): SessionView {
  return {
    id: session.id,
    createdAt: iso(session.createdAt),
    lastSeenAt: iso(session.lastSeenAt),
    expiresAt: iso(session.expiresAt),
    userAgent: session.userAgent,
    address: session.address,
    current: session.id === currentId,
  };
}

export function memberView(member: MemberRecord, actorId: string): MemberView {
  return {
    userId: member.userId,
    email: member.email,
    name: member.name,
    role: member.role,
    hasPassword: member.hasPassword,
    since: iso(member.createdAt),
    you: member.userId === actorId,
  };
}

export function appView(app: OAuthAppRecord): OAuthAppView {
  return { clientId: app.id, name: app.name, redirectUris: app.redirectUris, public: app.isPublic, createdAt: iso(app.createdAt) };
}

export function grantView(grant: OAuthGrantRecord): GrantView {
  return {
    id: grant.id,
    clientId: grant.clientId,
    appName: grant.clientName,
    scopes: grant.scope,
    consentedBy: { userId: grant.userId, email: grant.userEmail },
    createdAt: iso(grant.createdAt),
    lastUsedAt: iso(grant.lastUsedAt),
  };
}

export function jwtKeyView(key: AccountJwtKeyRecord): JwtKeyView {
  return {
    kid: key.kid,
    alg: key.alg,
    source: key.source,
    publicJwk: { ...key.publicJwk },
    createdAt: iso(key.createdAt),
    lastUsedAt: iso(key.lastUsedAt),
  };
}
