/**
 * Endpoints and deliveries as people read them, in the management API
 * (api/management/webhooks/operations.ts) and the admin CLI (deploy/admin/webhook-commands.ts):
 * times as ISO 8601, absent values as null, never a secret nor a payload.
 */
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/kysely-webhooks.js';

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

export function endpointFields(e: WebhookEndpointRecord) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    enabled: e.disabledAt === undefined,
    disabledReason: e.disabledReason ?? null,
    failingSince: iso(e.failingSince),
    createdAt: new Date(e.createdAt).toISOString(),
    rotatedAt: iso(e.rotatedAt),
  };
}
