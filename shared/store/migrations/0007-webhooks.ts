/**
 * Webhook endpoints and their deliveries (docs/webhooks.md). An endpoint's signing secrets are
 * sealed with AES-256-GCM under SECRETS_KEY (shared/webhooks/secrets.ts): unlike API keys they
 * must be read back to sign. A delivery row is the durable queue entry in embedded mode (pending
 * rows survive a restart) and the record of every outcome in both modes; its id is the
 * `webhook-id` header, the same on every attempt and replay.
 */
import type { Kysely, Migration } from 'kysely';

export const webhooksMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      // JSON array of event types; '[]' = every job event.
      .addColumn('event_types', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('disabled_at', 'bigint')
      .addColumn('disabled_reason', 'text')
      .addColumn('secret_sealed', 'text', (c) => c.notNull())
      // The secret before the last rotation, still signed with until previous_expires_at.
      .addColumn('previous_secret_sealed', 'text')
      .addColumn('previous_expires_at', 'bigint')
      // Start of the current run of failed attempts; cleared by a success (auto-disable after N days).
      .addColumn('failing_since', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('rotated_at', 'bigint')
      .execute();
    await db.schema.createIndex('webhook_endpoints_account_id_idx').on('webhook_endpoints').column('account_id').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      // What the event is about (`job.completed:<job id>`), unique per endpoint: an event emitted
      // twice (a finisher run again after a crash) makes one delivery, not two.
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      // pending | delivered | failed
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('last_latency_ms', 'integer')
      .addColumn('last_response', 'text')
      // A test event: one attempt, never counted against the endpoint.
      .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('webhook_deliveries_event_uq', ['endpoint_id', 'event_key'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_account_idx').on('webhook_deliveries').columns(['account_id', 'created_at']).execute();
  },
};
