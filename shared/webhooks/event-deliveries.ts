/**
 * Distributed mode's `event` job turns a finished job into its deliveries and hands them straight
 * to their first attempt, in the same job (docs/decisions.md "Webhooks"): one read of the account's
 * endpoints and one INSERT for every matching endpoint, whose RETURNING is what the attempts need,
 * so nothing is read back and no second queue job stands between the event and the receiver.
 *
 * The statement is idempotent, and it is what makes a re-run of the event job (a worker killed
 * mid-attempt, the job then handed to another by BullMQ's stalled check) deliver at least once:
 * a delivery already there is not inserted again, but while it is still pending with no attempt
 * recorded it is returned again, same id (the webhook-id) and same payload, to be attempted again.
 * One with an attempt recorded is left to the `attempt` job its outcome queued.
 */
import type { Kysely } from 'kysely';
import { pendingDeliveryRow, type KyselyWebhookStore, type WebhookEndpointRecord } from '../store/kysely-webhooks.js';
import type { Database } from '../store/schema.js';
import type { WebhookTables } from '../store/schema-webhooks.js';
import type { AttemptedDelivery } from './deliver.js';
import { endpointsForEvent, eventKeyOf, jobEvent, type FinishedJob } from './events.js';
import { newDeliveryId } from './service.js';

export interface FirstAttempt {
  delivery: AttemptedDelivery;
  endpoint: WebhookEndpointRecord;
}

export class EventDeliveries {
  private readonly db: Kysely<WebhookTables>;

  constructor(
    db: Kysely<Database>,
    private readonly store: KyselyWebhookStore,
  ) {
    // The webhook tables are typed apart from Database, as in KyselyWebhookStore (0007_webhooks).
    this.db = db as unknown as Kysely<WebhookTables>;
  }

  /** The deliveries of `job`'s event that await their first attempt: new ones, or ones a killed run left unattempted. */
  async record(job: FinishedJob, target: { endpointId?: string | undefined } | undefined, now = Date.now()): Promise<FirstAttempt[]> {
    const event = jobEvent(job);
    const endpoints = endpointsForEvent(await this.store.enabledEndpoints(job.accountId), event.type, target);
    if (endpoints.length === 0) return [];
    const payload = JSON.stringify(event);
    const eventKey = eventKeyOf(event.type, job.id);
    const rows = await this.db
      .insertInto('webhook_deliveries')
      .values(
        endpoints.map((e) =>
          pendingDeliveryRow(
            { id: newDeliveryId(), endpointId: e.id, accountId: e.accountId, eventType: event.type, eventKey, payload, isTest: false },
            now,
          ),
        ),
      )
      // An update that changes nothing, so that RETURNING includes the row already there; only
      // while no attempt of it is recorded (a row with one belongs to its `attempt` job).
      .onConflict((oc) =>
        oc
          .columns(['endpoint_id', 'event_key'])
          .doUpdateSet((eb) => ({ updated_at: eb.ref('webhook_deliveries.updated_at') }))
          .where('webhook_deliveries.status', '=', 'pending')
          .where('webhook_deliveries.attempts', '=', 0),
      )
      .returning(['id', 'endpoint_id', 'payload', 'attempts', 'is_test'])
      .execute();
    const byId = new Map(endpoints.map((e) => [e.id, e]));
    return rows.flatMap((r) => {
      const endpoint = byId.get(r.endpoint_id);
      if (endpoint === undefined) return [];
      return [
        { delivery: { id: r.id, endpointId: r.endpoint_id, payload: r.payload, attempts: r.attempts, isTest: r.is_test === 1 }, endpoint },
      ];
    });
  }
}
