/**
 * The relational store: accounts, API keys and durable usage counters. One Kysely code path over
 * SQLite (embedded) or PostgreSQL (DATABASE_URL=postgres://…).
 */

/** Plans of SPEC "Limits, v2, by plan". */
export const PLANS = ['free', 'basic', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Key types of SPEC "API key". */
export const KEY_TYPES = ['production', 'development', 'read_only', 'client'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

/** Usage is counted apart for the sandbox (SPEC: the sandbox does not count against production). */
export type UsageScope = 'production' | 'sandbox';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
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
}

export interface AccountStore {
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
  /** Sets revoked_at once; a revoked key cannot be restored (SPEC "States and transitions"). */
  revokeKey(id: string): Promise<boolean>;
  touchKey(id: string, at: Date): Promise<void>;

  /** Atomically add `count` to a day's counter (day = 'YYYY-MM-DD' UTC). */
  addUsage(accountId: string, day: string, scope: UsageScope, count: number): Promise<void>;
  getUsage(accountId: string, day: string, scope: UsageScope): Promise<number>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
