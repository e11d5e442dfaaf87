/**
 * Tables of the account dashboard (migration 0003_dashboard_accounts), as the database holds them.
 * Timestamps are epoch milliseconds, as in schema.ts. No column holds a secret in clear: session
 * tokens and one-time links are kept as SHA-256 hex (they are 256-bit random strings), passwords as
 * scrypt hashes with their parameters (api/sessions/passwords.ts).
 */
export interface UsersTable {
  id: string;
  /** As the person typed it (trimmed), for display. */
  email: string;
  /** NFC, lower case: the unique, case-insensitive identity. */
  email_normalized: string;
  name: string;
  /** `$scrypt$ln=…,r=…,p=…$salt$hash`; null until the person sets a password through a one-time link. */
  password_hash: string | null;
  password_changed_at: number | null;
  created_at: number;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  /** A `Role` (dashboard-types.ts); validated in code. */
  role: string;
  created_at: number;
}

export interface SessionsTable {
  /** Public id (listing, "end this session"); not the secret. */
  id: string;
  /** SHA-256 hex of the session token the cookie carries. */
  token_hash: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  /** Absolute end, whatever the activity. */
  expires_at: number;
  /** The session also ends this long after last_seen_at. */
  idle_timeout_ms: number;
  user_agent: string;
  address: string;
}

export interface OneTimeLinksTable {
  /** SHA-256 hex of the link's token. */
  token_hash: string;
  user_id: string;
  /** 'setup' (first password) or 'reset'. */
  purpose: string;
  created_at: number;
  expires_at: number;
  /** Set once, by the single use. */
  consumed_at: number | null;
}

export interface SignInThrottleTable {
  /** `address:<ip or /64>` or `email:<sha256 of the normalised email>`. */
  subject: string;
  window_started_at: number;
  failures: number;
}

export interface OAuthGrantsTable {
  /** `ogr_…`; codes and tokens issued under this consent carry it as consent_id. */
  id: string;
  account_id: string;
  client_id: string;
  /** The person who consented; the grant ends with their access. */
  user_id: string;
  /** Space-separated scopes consented to (the union of every approval). */
  scope: string;
  created_at: number;
  last_used_at: number | null;
}

export interface AccountJwtKeysTable {
  id: string;
  account_id: string;
  kid: string;
  /** 'ES256' or 'EdDSA'. */
  alg: string;
  /** The public JWK (JSON), only the members that describe the key. */
  public_jwk: string;
  /** How it was pasted: 'pem', 'jwk' or 'jwks'. */
  source: string;
  created_at: number;
  last_used_at: number | null;
}

export interface UsageKeyDailyTable {
  account_id: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  /** 'production' or 'sandbox'. */
  scope: string;
  /** An API key id, `oauth:<client id>` or `jwt:<kid>`: bounded per account. */
  credential: string;
  /** The limiter's generation: v1a, v1b, v2 or ws. */
  generation: string;
  count: number;
}

export interface DashboardTables {
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
  sign_in_throttle: SignInThrottleTable;
  oauth_grants: OAuthGrantsTable;
  account_jwt_keys: AccountJwtKeysTable;
  usage_key_daily: UsageKeyDailyTable;
}
