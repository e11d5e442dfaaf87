/**
 * People, sessions and account settings for the account dashboard (docs/decisions.md "Dashboard
 * and accounts"). Secrets are stored as SHA-256 hex of high-entropy random tokens (sessions,
 * one-time links) or as scrypt hashes (passwords); nothing here holds a secret in clear.
 *
 * Existing tables gain nullable or defaulted columns only, so rows written before this migration
 * keep their meaning: no IP restriction ('[]'), not rolled, tokens not tied to a person's consent.
 */
import type { Kysely, Migration } from 'kysely';

export const dashboardAccountsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      // Unique case-insensitively: the normalised form (NFC, lower case) carries the constraint, so
      // both engines agree (SQLite's lower() folds ASCII only).
      .addColumn('email_normalized', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text')
      .addColumn('password_changed_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('memberships')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['account_id', 'user_id'])
      .execute();
    await db.schema.createIndex('memberships_user_id_idx').on('memberships').column('user_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('idle_timeout_ms', 'bigint', (c) => c.notNull())
      .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('one_time_links')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('consumed_at', 'bigint')
      .execute();
    await db.schema.createIndex('one_time_links_user_id_idx').on('one_time_links').column('user_id').execute();

    await db.schema
      .createTable('sign_in_throttle')
      .addColumn('subject', 'text', (c) => c.primaryKey())
      .addColumn('window_started_at', 'bigint', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('oauth_grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addUniqueConstraint('oauth_grants_account_client_user_uq', ['account_id', 'client_id', 'user_id'])
      .execute();
    await db.schema.createIndex('oauth_grants_user_id_idx').on('oauth_grants').column('user_id').execute();
    // Codes and tokens issued under a person's consent name it, so ending the consent revokes them.
    for (const table of ['oauth_codes', 'oauth_access_tokens', 'oauth_refresh_tokens']) {
      await db.schema.alterTable(table).addColumn('consent_id', 'text').execute();
      await db.schema.createIndex(`${table}_consent_id_idx`).on(table).column('consent_id').execute();
    }

    await db.schema
      .createTable('account_jwt_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('kid', 'text', (c) => c.notNull())
      .addColumn('alg', 'text', (c) => c.notNull())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addUniqueConstraint('account_jwt_keys_account_kid_uq', ['account_id', 'kid'])
      .execute();

    await db.schema
      .alterTable('api_keys')
      .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('api_keys').addColumn('replaced_by', 'text').execute();
    await db.schema
      .alterTable('accounts')
      .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();

    await db.schema
      .createTable('usage_key_daily')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('credential', 'text', (c) => c.notNull())
      .addColumn('generation', 'text', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_key_daily_pk', ['account_id', 'day', 'scope', 'credential', 'generation'])
      .execute();
  },
};
