/** Request and response schemas of the webhook routes (docs/webhooks.md "Management API"). */
import { WEBHOOK_EVENT_TYPES } from '../../../shared/webhooks/event-types.js';
import { AccountParams, Id, Timestamp, z } from '../schemas/common.js';

export const WebhookEndpointParams = AccountParams.extend({ endpointId: Id });
export const WebhookDeliveryParams = AccountParams.extend({ deliveryId: Id });

const EventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).max(WEBHOOK_EVENT_TYPES.length).openapi({
  description: 'Event types sent to the endpoint; empty: every job event',
});

export const WebhookEndpointView = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    failingSince: Timestamp.nullable(),
    createdAt: Timestamp,
    rotatedAt: Timestamp.nullable(),
  })
  .openapi('MgmtWebhookEndpoint');
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

export const WebhookEndpointListResponse = z.object({ endpoints: z.array(WebhookEndpointView) }).openapi('MgmtWebhookEndpointList');

export const CreateWebhookEndpointRequest = z
  .object({
    url: z.string().min(1).max(2000),
    description: z.string().max(200).default(''),
    eventTypes: EventTypes.default([]),
  })
  .openapi('MgmtCreateWebhookEndpointRequest');
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const UpdateWebhookEndpointRequest = z
  .object({
    url: z.string().min(1).max(2000).optional(),
    description: z.string().max(200).optional(),
    eventTypes: EventTypes.optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('MgmtUpdateWebhookEndpointRequest');
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequest>;

export const CreatedWebhookEndpointResponse = z
  .object({ endpoint: WebhookEndpointView, secret: z.string().openapi({ description: 'whsec_…: shown once, never again' }) })
  .openapi('MgmtCreatedWebhookEndpoint');

export const RotatedWebhookSecretResponse = z
  .object({
    secret: z.string().openapi({ description: 'The new whsec_… secret: shown once' }),
    previousSecretExpiresAt: Timestamp.openapi({ description: 'Until then every delivery is signed with both secrets' }),
  })
  .openapi('MgmtRotatedWebhookSecret');

export const WebhookDeliveryView = z
  .object({
    id: z.string().openapi({ description: 'The webhook-id header: the same on every attempt and replay' }),
    endpointId: z.string(),
    eventType: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: Timestamp.nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastLatencyMs: z.number().int().nullable(),
    isTest: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('MgmtWebhookDelivery');
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const WebhookDeliveryListQuery = z.object({
  endpointId: Id.optional(),
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type WebhookDeliveryListQuery = z.infer<typeof WebhookDeliveryListQuery>;

export const WebhookDeliveryListResponse = z.object({ deliveries: z.array(WebhookDeliveryView) }).openapi('MgmtWebhookDeliveryList');

export const WebhookTestResponse = z.object({ deliveryId: z.string() }).openapi('MgmtWebhookTest');
