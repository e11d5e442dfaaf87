/**
 * The relational store: accounts, API keys and durable usage counters. One Kysely code path over
 * SQLite (embedded) or PostgreSQL (DATABASE_URL=postgres://…).
 */
import type { LogStore } from './log-store.js';
import type {
  JwtKeyStore,
  OAuthAppStore,
  OAuthGrantStore,
  OneTimeLinkStore,
  SessionStore,
  SignInThrottleStore,
  UserStore,
} from './dashboard-types.js';
import type { OAuthServerStore } from './oauth-server-types.js';
import type { Plan } from './plan.js';

export { PLANS, type Plan } from './plan.js';

/** Key types of docs/api.md "Resources". */
export const KEY_TYPES = ['production', 'development', 'read_only', 'client'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

/** Usage is counted apart for the sandbox (docs/api.md "Overview": the sandbox does not count against production). */
export type UsageScope = 'production' | 'sandbox';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
  /** IP addresses and CIDR ranges every credential of the account must come from; empty = anywhere. */
  allowedIps: string[];
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** Non-secret leading characters of the key, for listings ("s224_AbCd…"). */
  prefix: string;
  type: KeyType;
  description: string;
  /** Origins' host names a client key may be used from; empty for other types. */
  allowedDomains: string[];
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** IP addresses and CIDR ranges the key may be used from; empty = wherever the account allows. */
  allowedIps: string[];
  /** Set when the key was rolled: the key that replaced it (this one works until its expiresAt). */
  replacedBy: string | null;
}

export interface NewAccount {
  name: string;
  plan: Plan;
}

export interface NewApiKey {
  accountId: string;
  type: KeyType;
  description: string;
  allowedDomains?: string[];
  expiresAt?: Date | null;
  allowedIps?: string[];
}

/** Accounts, keys and usage; the dashboard's areas and the OAuth server's rows are properties. */
export interface AccountStore extends DashboardStores {
  /** Clients, codes and tokens of the OAuth 2.0 server (api/oauth). */
  readonly oauthServer: OAuthServerStore;
  /** The transparency log's leaves and checkpoints (shared/proof/log.ts). */
  readonly transparencyLog: LogStore;
  createAccount(input: NewAccount): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  setPlan(accountId: string, plan: Plan): Promise<boolean>;

  /** Stores only `keyHash`; the secret itself never reaches the store. */
  insertKey(input: NewApiKey & { id: string; prefix: string; keyHash: string }): Promise<ApiKeyRecord>;
  /** Lookup by the SHA-256 of the presented key. Returns the record and its stored hash. */
  findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; keyHash: string; account: Account } | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Sets revoked_at once; a revoked key cannot be restored (docs/api.md "Key states"). */
  revokeKey(id: string): Promise<boolean>;
  touchKey(id: string, at: Date): Promise<void>;

  /** Atomically add `count` to a day's counter (day = 'YYYY-MM-DD' UTC). */
  addUsage(accountId: string, day: string, scope: UsageScope, count: number): Promise<void>;
  getUsage(accountId: string, day: string, scope: UsageScope): Promise<number>;
  /**
   * Apply one flush of a node's usage buffer (usage_daily and usage_key_daily) in one transaction
   * that also records `flush.id`; a flush whose id is already recorded is skipped, so sending it
   * again after a lost answer never counts it twice. Resolves whether applied now or before.
   */
  applyUsage(flush: UsageFlush): Promise<void>;

  /**
   * Runs `work` while no other process on this database runs its own: the first start's bootstrap
   * (shared/accounts/first-start.ts), so that of nodes starting together exactly one creates the admin.
   */
  withFirstStartLock<T>(work: () => Promise<T>): Promise<T>;

  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface KeyChanges {
  description?: string;
  allowedDomains?: string[];
  allowedIps?: string[];
}

export interface KeySettingsStore {
  updateKey(id: string, changes: KeyChanges): Promise<ApiKeyRecord | undefined>;
  /**
   * In one transaction: inserts `replacement` and marks `oldId` replaced by it, ending the old key
   * at `graceEndsAt` (or its own earlier expiry). undefined when the old key is revoked, already
   * replaced or expired at `now`.
   */
  rollKey(
    oldId: string,
    replacement: NewApiKey & { id: string; prefix: string; keyHash: string },
    graceEndsAt: Date,
    now: Date,
  ): Promise<{ old: ApiKeyRecord; replacement: ApiKeyRecord } | undefined>;
  setAccountAllowedIps(accountId: string, allowedIps: string[]): Promise<boolean>;
}

/** The limiter's counting buckets (shared/limits/types.ts Generation). */
export type UsageGeneration = 'v1a' | 'v1b' | 'v2' | 'ws';

export interface KeyUsageEntry {
  accountId: string;
  day: string;
  scope: UsageScope;
  /** An API key id, `oauth:<client id>` or `jwt:<kid>`. */
  credential: string;
  generation: UsageGeneration;
  count: number;
}

/** One flush of a node's usage buffer: the account totals and their per-credential breakdown. */
export interface UsageFlush {
  /** Unique per flush and kept when the same flush is sent again. */
  id: string;
  totals: Array<{ accountId: string; day: string; scope: UsageScope; count: number }>;
  byKey: KeyUsageEntry[];
}

export interface KeyUsageStore {
  /** Atomically adds `count` to one (account, day, scope, credential, generation) counter. */
  add(entry: KeyUsageEntry): Promise<void>;
  /** Per-credential, per-generation counts of the days from `fromDay` to `toDay` (inclusive). */
  listByCredential(accountId: string, scope: UsageScope, fromDay: string, toDay: string): Promise<KeyUsageEntry[]>;
  /** The account's durable day totals (usage_daily) from `fromDay` to `toDay` (inclusive); missing days are absent. */
  listDaily(accountId: string, scope: UsageScope, fromDay: string, toDay: string): Promise<Array<{ day: string; count: number }>>;
}

/** The dashboard's stores, reached as properties of the AccountStore. */
export interface DashboardStores {
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly oneTimeLinks: OneTimeLinkStore;
  readonly signInThrottle: SignInThrottleStore;
  readonly oauthApps: OAuthAppStore;
  readonly oauthGrants: OAuthGrantStore;
  readonly jwtKeys: JwtKeyStore;
  readonly keySettings: KeySettingsStore;
  readonly keyUsage: KeyUsageStore;
}
