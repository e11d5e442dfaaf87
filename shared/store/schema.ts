import type { LogTables } from './schema-log.js';
import type { ColumnType } from 'kysely';
import type { DashboardTables } from './schema-dashboard.js';

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
  /** JSON array of IP addresses and CIDR ranges every credential of the account must come from; '[]' = anywhere. */
  allowed_ips: string;
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
  /** JSON array of IP addresses and CIDR ranges the key may be used from; '[]' = anywhere the account allows. */
  allowed_ips: string;
  /** The key that replaced this one by a roll; its expires_at is then the end of the grace period. */
  replaced_by: string | null;
}

/** Usage flushes applied, by id, so one sent again after a lost answer is skipped (kept a day). */
export interface UsageFlushesTable {
  id: string;
  applied_at: number;
}

export interface UsageDailyTable {
  account_id: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  scope: string;
  count: number;
}

/**
 * OAuth 2.0 (docs/api.md "Authentication" rule 8, migration 0002). Every secret (client secret, code,
 * access and refresh token) is kept only as the SHA-256 hex of its value (shared/oauth/tokens.ts).
 */
export interface OAuthClientsTable {
  /** The public client_id. */
  id: string;
  /** SHA-256 hex of the client secret; null for a public client (PKCE only). */
  secret_hash: string | null;
  name: string;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  /** The Enterprise account that registered the client, and the only one that may authorize it. */
  account_id: string;
  created_at: number;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  account_id: string;
  /** Shared by every token issued from this code, so a replayed code or refresh token revokes them all. */
  grant_id: string;
  redirect_uri: string;
  /** Space-separated scopes. */
  scope: string;
  code_challenge: string;
  code_challenge_method: string;
  created_at: number;
  expires_at: number;
  /** Set when the code is exchanged; a second exchange finds it set (RFC 6749 §4.1.2). */
  consumed_at: number | null;
  /** The person's consent (oauth_grants.id, migration 0003) the code was issued under; ending it revokes the code. */
  consent_id: ConsentColumn;
  /** The API key presented as consent on the operator path (migration 0004); revoking it revokes the code. */
  api_key_id: IssuingKeyColumn;
}

export interface OAuthTokensTable {
  token_hash: string;
  client_id: string;
  account_id: string;
  grant_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** As on oauth_codes: carried from the code to every token of its grant. */
  consent_id: ConsentColumn;
  /** As on oauth_codes: carried from the code to every token of its grant. */
  api_key_id: IssuingKeyColumn;
}

/** Null for rows from before consents existed; optional on insert. */
type ConsentColumn = ColumnType<string | null, string | null | undefined, string | null>;

/** Null unless issued on the operator path, and for rows from before migration 0004; optional on insert. */
type IssuingKeyColumn = ColumnType<string | null, string | null | undefined, string | null>;

export interface Database extends DashboardTables, LogTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  usage_daily: UsageDailyTable;
  usage_flushes: UsageFlushesTable;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_access_tokens: OAuthTokensTable;
  oauth_refresh_tokens: OAuthTokensTable;
}
