/**
 * Webhook endpoints and deliveries over Kysely (SQLite and PostgreSQL alike). Rows cross as the
 * domain types below; the sealed secrets are opaque here (shared/webhooks/secrets.ts opens them).
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { WebhookDeliveriesTable, WebhookEndpointsTable, WebhookTables } from './schema-webhooks.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  url: string;
  description: string;
  eventTypes: string[];
  disabledAt: number | undefined;
  disabledReason: string | undefined;
  secretSealed: string;
  previousSecretSealed: string | undefined;
  previousExpiresAt: number | undefined;
  failingSince: number | undefined;
  createdAt: number;
  rotatedAt: number | undefined;
}

export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  accountId: string;
  eventType: string;
  eventKey: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | undefined;
  lastStatusCode: number | undefined;
  lastError: string | undefined;
  lastLatencyMs: number | undefined;
  lastResponse: string | undefined;
  isTest: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface NewEndpoint {
  id: string;
  accountId: string;
  url: string;
  description: string;
  eventTypes: string[];
  secretSealed: string;
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  accountId: string;
  eventType: string;
  eventKey: string;
  payload: string;
  isTest: boolean;
}

/** The row of a delivery not yet attempted, due at `now`. */
export function pendingDeliveryRow(d: NewDelivery, now: number) {
  return {
    id: d.id,
    endpoint_id: d.endpointId,
    account_id: d.accountId,
    event_type: d.eventType,
    event_key: d.eventKey,
    payload: d.payload,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    last_status_code: null,
    last_error: null,
    last_latency_ms: null,
    last_response: null,
    is_test: d.isTest ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
}

export interface AttemptRecord {
  status: DeliveryStatus;
  nextAttemptAt: number | undefined;
  statusCode: number | undefined;
  error: string | undefined;
  latencyMs: number;
  response: string | undefined;
}

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

function toEndpoint(r: WebhookEndpointsTable): WebhookEndpointRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    eventTypes: JSON.parse(r.event_types) as string[],
    disabledAt: opt(r.disabled_at),
    disabledReason: opt(r.disabled_reason),
    secretSealed: r.secret_sealed,
    previousSecretSealed: opt(r.previous_secret_sealed),
    previousExpiresAt: opt(r.previous_expires_at),
    failingSince: opt(r.failing_since),
    createdAt: r.created_at,
    rotatedAt: opt(r.rotated_at),
  };
}

function toDelivery(r: WebhookDeliveriesTable): WebhookDeliveryRecord {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    accountId: r.account_id,
    eventType: r.event_type,
    eventKey: r.event_key,
    payload: r.payload,
    status: r.status as DeliveryStatus,
    attempts: r.attempts,
    nextAttemptAt: opt(r.next_attempt_at),
    lastStatusCode: opt(r.last_status_code),
    lastError: opt(r.last_error),
    lastLatencyMs: opt(r.last_latency_ms),
    lastResponse: opt(r.last_response),
    isTest: r.is_test === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export class KyselyWebhookStore {
  private readonly db: Kysely<WebhookTables>;

  /** Takes the store's database; the webhook tables are typed here (0007_webhooks). */
  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<WebhookTables>;
  }

  async createEndpoint(input: NewEndpoint, now = Date.now()): Promise<WebhookEndpointRecord> {
    const row: WebhookEndpointsTable = {
      id: input.id,
      account_id: input.accountId,
      url: input.url,
      description: input.description,
      event_types: JSON.stringify(input.eventTypes),
      disabled_at: null,
      disabled_reason: null,
      secret_sealed: input.secretSealed,
      previous_secret_sealed: null,
      previous_expires_at: null,
      failing_since: null,
      created_at: now,
      rotated_at: null,
    };
    await this.db.insertInto('webhook_endpoints').values(row).execute();
    return toEndpoint(row);
  }

  async endpoint(id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toEndpoint(row);
  }

  async endpoints(accountId?: string): Promise<WebhookEndpointRecord[]> {
    let q = this.db.selectFrom('webhook_endpoints').selectAll();
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const rows = await q.orderBy('created_at').orderBy('id').execute();
    return rows.map(toEndpoint);
  }

  /** Enabled endpoints of an account (their filters are applied by the caller). */
  async enabledEndpoints(accountId: string): Promise<WebhookEndpointRecord[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('disabled_at', 'is', null)
      .execute();
    return rows.map(toEndpoint);
  }

  async updateEndpoint(
    id: string,
    changes: { url?: string; description?: string; eventTypes?: string[]; enabled?: boolean },
    now = Date.now(),
  ): Promise<WebhookEndpointRecord | undefined> {
    const set: Partial<WebhookEndpointsTable> = {};
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.eventTypes !== undefined) set.event_types = JSON.stringify(changes.eventTypes);
    if (changes.enabled === true) Object.assign(set, { disabled_at: null, disabled_reason: null, failing_since: null });
    if (changes.enabled === false) Object.assign(set, { disabled_at: now, disabled_reason: 'disabled by a user' });
    if (Object.keys(set).length > 0) await this.db.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
    return this.endpoint(id);
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
    return res.numDeletedRows > 0n;
  }

  /** The current secret becomes the previous one (signed with until `previousExpiresAt`). */
  async rotateSecret(id: string, sealed: string, previousSealed: string, previousExpiresAt: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ secret_sealed: sealed, previous_secret_sealed: previousSealed, previous_expires_at: previousExpiresAt, rotated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async disableEndpoint(id: string, reason: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: now, disabled_reason: reason })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .execute();
  }

  /** A failed attempt starts the endpoint's failing run (if none); a success ends it. */
  async markEndpointHealth(id: string, failedAt: number | undefined): Promise<void> {
    let q = this.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: failedAt ?? null })
      .where('id', '=', id);
    q = failedAt === undefined ? q.where('failing_since', 'is not', null) : q.where('failing_since', 'is', null);
    await q.execute();
  }

  /** Inserts the deliveries; one whose (endpoint, event) exists already is skipped. Returns the ids inserted. */
  async insertDeliveries(deliveries: readonly NewDelivery[], now = Date.now()): Promise<string[]> {
    const inserted: string[] = [];
    for (const d of deliveries) {
      const res = await this.db
        .insertInto('webhook_deliveries')
        .values(pendingDeliveryRow(d, now))
        .onConflict((oc) => oc.columns(['endpoint_id', 'event_key']).doNothing())
        .executeTakeFirst();
      if ((res.numInsertedOrUpdatedRows ?? 0n) > 0n) inserted.push(d.id);
    }
    return inserted;
  }

  async delivery(id: string): Promise<WebhookDeliveryRecord | undefined> {
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toDelivery(row);
  }

  /** Pending deliveries due by `now`, soonest first. */
  async dueDeliveries(now: number, limit: number): Promise<WebhookDeliveryRecord[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  /** The earliest time a pending delivery is due, if any. */
  async nextDueAt(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }

  async recordAttempt(id: string, attempt: AttemptRecord, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        status: attempt.status,
        next_attempt_at: attempt.nextAttemptAt ?? null,
        last_status_code: attempt.statusCode ?? null,
        last_error: attempt.error ?? null,
        last_latency_ms: attempt.latencyMs,
        last_response: attempt.response ?? null,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** A replay: the same delivery (same webhook-id) pending again from now, its attempts counted afresh. */
  async requeue(id: string, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async deliveries(filter: {
    accountId?: string;
    endpointId?: string;
    status?: DeliveryStatus;
    limit: number;
  }): Promise<WebhookDeliveryRecord[]> {
    let q = this.db.selectFrom('webhook_deliveries').selectAll();
    if (filter.accountId !== undefined) q = q.where('account_id', '=', filter.accountId);
    if (filter.endpointId !== undefined) q = q.where('endpoint_id', '=', filter.endpointId);
    if (filter.status !== undefined) q = q.where('status', '=', filter.status);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
    return rows.map(toDelivery);
  }

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
