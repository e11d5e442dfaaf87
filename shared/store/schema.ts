/**
 * Table types as the database holds them. Timestamps are integer epoch milliseconds in both engines
 * (PostgreSQL `bigint`, parsed back to a JS number by database.ts; SQLite INTEGER); the store maps
 * them to `Date` at its boundary. Epoch milliseconds stay below 2^53 for the next 280,000 years.
 */
export interface AccountsTable {
  id: string;
  name: string;
  /** A `Plan`; validated in code, not by a CHECK, so the plan catalog can grow without a migration. */
  plan: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  /** SHA-256 hex of the whole key (shared/keys/format.ts); the secret itself is never stored. */
  key_hash: string;
  type: string;
  description: string;
  /** JSON array of host names, '[]' for non-client keys. */
  allowed_domains: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

export interface UsageDailyTable {
  account_id: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  scope: string;
  count: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
}
