/**
 * The store's part for the account dashboard: people and their roles, sessions, one-time links,
 * sign-in throttling, OAuth applications and consents, per-account JWT keys, key settings (IP
 * allow-lists, rolling) and per-key usage. Each area is a small interface reached as a property of
 * the AccountStore (`store.users`, `store.sessions`, …; the two about keys and usage are in
 * types.ts), implemented over Kysely in kysely-<area>.ts. Secrets cross these interfaces only as
 * hashes.
 */
/** Roles of a member of an account, most powerful first (the policy is api/sessions/policy.ts). */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  /** False until the person sets a password through a one-time link. */
  hasPassword: boolean;
  passwordChangedAt: Date | null;
  createdAt: Date;
}

export interface MembershipRecord {
  accountId: string;
  userId: string;
  role: Role;
  createdAt: Date;
}

/** A membership seen from the account: who the member is. */
export interface MemberRecord extends MembershipRecord {
  email: string;
  name: string;
  hasPassword: boolean;
}

/** A membership seen from the person: which account. */
export interface AccountMembershipRecord extends MembershipRecord {
  accountName: string;
  plan: string;
}

export interface UserStore {
  /** undefined when the email is taken (compared case-insensitively). */
  createUser(input: { email: string; name: string }): Promise<UserRecord | undefined>;
  getUser(id: string): Promise<UserRecord | undefined>;
  /** The user and the stored password hash (null before a password was set). */
  findUserByEmail(email: string): Promise<{ user: UserRecord; passwordHash: string | null } | undefined>;
  getPasswordHash(userId: string): Promise<string | null | undefined>;
  setPasswordHash(userId: string, passwordHash: string, at: Date): Promise<boolean>;
  /** Deletes the person, their memberships, sessions and links, and revokes every token of their consents. */
  deleteUser(userId: string): Promise<boolean>;

  /** False when the person is already a member. */
  addMembership(accountId: string, userId: string, role: Role): Promise<boolean>;
  getMembership(accountId: string, userId: string): Promise<MembershipRecord | undefined>;
  /**
   * Changes a role. With `endConsents`, the person's OAuth consents in the account end in the same
   * transaction (the caller decides from the policy whether the new role may still consent).
   */
  setRole(accountId: string, userId: string, role: Role, options?: { endConsents?: boolean }): Promise<boolean>;
  /** Removes a member and, in the same transaction, ends their OAuth consents in the account. */
  removeMembership(accountId: string, userId: string): Promise<boolean>;
  listMembers(accountId: string): Promise<MemberRecord[]>;
  listMemberships(userId: string): Promise<AccountMembershipRecord[]>;
  countOwners(accountId: string): Promise<number>;
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  idleTimeoutMs: number;
  userAgent: string;
  address: string;
}

/** Alive: before the absolute end and not idle for longer than the idle timeout. */
export function isSessionAlive(session: SessionRecord, now: Date): boolean {
  const ms = now.getTime();
  return ms < session.expiresAt.getTime() && ms < session.lastSeenAt.getTime() + session.idleTimeoutMs;
}

export interface NewSession {
  id: string;
  tokenHash: string;
  userId: string;
  expiresAt: Date;
  idleTimeoutMs: number;
  userAgent: string;
  address: string;
  now: Date;
}

export interface SessionStore {
  create(input: NewSession): Promise<SessionRecord>;
  /** The session whose token hashes to `tokenHash`, with its stored hash (for a constant-time compare). */
  findByTokenHash(tokenHash: string): Promise<{ session: SessionRecord; tokenHash: string } | undefined>;
  /** Moves last_seen_at forward (never back). */
  touch(id: string, at: Date): Promise<void>;
  /** Replaces the token of a live session (same id): the old cookie stops working. */
  rotate(id: string, newTokenHash: string, at: Date): Promise<boolean>;
  /** The person's sessions still alive at `now` (neither past expires_at nor idle too long), newest first. */
  list(userId: string, now: Date): Promise<SessionRecord[]>;
  /** Ends one of the person's sessions; false if it is not theirs or already ended. */
  end(userId: string, sessionId: string): Promise<boolean>;
  /** Ends all the person's sessions but `exceptId`; returns how many ended. */
  endAll(userId: string, exceptId?: string): Promise<number>;
  /** Deletes sessions dead at `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}

export const LINK_PURPOSES = ['setup', 'reset'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

export interface OneTimeLinkStore {
  /** Stores a link's hash; the person's earlier unused links stop working (the newest one wins). */
  create(input: { tokenHash: string; userId: string; purpose: LinkPurpose; expiresAt: Date; now: Date }): Promise<void>;
  /** Spends the link if unused and unexpired at `now` (one conditional UPDATE: one winner). */
  consume(tokenHash: string, now: Date): Promise<{ userId: string; purpose: LinkPurpose } | undefined>;
  /** Whether the link would be accepted now, without spending it. */
  peek(tokenHash: string, now: Date): Promise<{ userId: string; purpose: LinkPurpose } | undefined>;
}

export interface ThrottleState {
  failures: number;
  windowStartedAt: Date;
}

export interface SignInThrottleStore {
  /** Current failures of each subject whose window is still open at `now`; closed windows are absent. */
  get(subjects: readonly string[], windowMs: number, now: Date): Promise<Map<string, ThrottleState>>;
  /** Adds one failure (opening a new window when the last one closed) and returns the count in the window. */
  recordFailure(subject: string, windowMs: number, now: Date): Promise<number>;
  clear(subject: string): Promise<void>;
}

export interface OAuthAppRecord {
  /** The public client_id. */
  id: string;
  accountId: string;
  name: string;
  redirectUris: string[];
  isPublic: boolean;
  createdAt: Date;
}

export interface OAuthAppStore {
  create(input: {
    id: string;
    accountId: string;
    name: string;
    redirectUris: string[];
    secretHash: string | null;
  }): Promise<OAuthAppRecord>;
  get(clientId: string): Promise<OAuthAppRecord | undefined>;
  list(accountId: string): Promise<OAuthAppRecord[]>;
  update(clientId: string, changes: { name?: string; redirectUris?: string[] }): Promise<OAuthAppRecord | undefined>;
  /** Replaces a confidential client's secret hash; false for an unknown or public client. */
  setSecretHash(clientId: string, secretHash: string): Promise<boolean>;
  /** Deletes the client; its codes, tokens and consents go with it (ON DELETE CASCADE). */
  delete(clientId: string): Promise<boolean>;
}

export interface OAuthGrantRecord {
  id: string;
  accountId: string;
  clientId: string;
  clientName: string;
  userId: string;
  userEmail: string;
  scope: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface OAuthGrantStore {
  /** Records a consent, or widens an existing one to the union of both scopes. */
  upsert(input: { accountId: string; clientId: string; userId: string; scope: readonly string[]; now: Date }): Promise<OAuthGrantRecord>;
  get(id: string): Promise<OAuthGrantRecord | undefined>;
  find(accountId: string, clientId: string, userId: string): Promise<OAuthGrantRecord | undefined>;
  list(accountId: string): Promise<OAuthGrantRecord[]>;
  touch(id: string, at: Date): Promise<void>;
  /** Ends a consent: deletes it and revokes every code and token issued under it. */
  revoke(id: string): Promise<boolean>;
  /** Ends every consent the person gave in the account; returns how many. */
  revokeByUser(accountId: string, userId: string): Promise<number>;
}

export const JWT_KEY_ALGORITHMS = ['ES256', 'EdDSA'] as const;
export type JwtKeyAlgorithm = (typeof JWT_KEY_ALGORITHMS)[number];
export type JwtKeySource = 'pem' | 'jwk' | 'jwks';

/** A public JWK's describing members only (kty, crv, x, y). */
export type PublicJwk = Readonly<Record<string, string>>;

export interface NewAccountJwtKey {
  kid: string;
  alg: JwtKeyAlgorithm;
  publicJwk: PublicJwk;
  source: JwtKeySource;
}

export interface AccountJwtKeyRecord extends NewAccountJwtKey {
  id: string;
  accountId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface JwtKeyStore {
  /** Adds keys in one transaction; undefined (nothing added) when a `kid` is already used by the account. */
  add(accountId: string, keys: readonly NewAccountJwtKey[]): Promise<AccountJwtKeyRecord[] | undefined>;
  /** Replaces all the account's keys with `keys` in one transaction (rotation). */
  replaceAll(accountId: string, keys: readonly NewAccountJwtKey[]): Promise<AccountJwtKeyRecord[]>;
  list(accountId: string): Promise<AccountJwtKeyRecord[]>;
  find(accountId: string, kid: string): Promise<AccountJwtKeyRecord | undefined>;
  delete(accountId: string, kid: string): Promise<boolean>;
  touch(id: string, at: Date): Promise<void>;
}
