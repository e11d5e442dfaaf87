/**
 * A delivery as people read it, in the management API (api/management/webhooks/operations.ts) and
 * the admin CLI (deploy/admin/webhook-commands.ts): times as ISO 8601, absent values as null, never
 * the payload nor the secret it was signed with.
 */
import type { WebhookDeliveryRecord } from '../store/kysely-webhooks.js';

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

export function deliveryFields(d: WebhookDeliveryRecord) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    lastStatusCode: d.lastStatusCode ?? null,
    lastError: d.lastError ?? null,
    lastLatencyMs: d.lastLatencyMs ?? null,
    isTest: d.isTest,
    createdAt: new Date(d.createdAt).toISOString(),
    updatedAt: new Date(d.updatedAt).toISOString(),
  };
}
