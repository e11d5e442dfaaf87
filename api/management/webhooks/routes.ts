/**
 * The webhook routes of the management API, below MANAGEMENT_BASE. Plain data with no imports, as
 * routes.ts: spread into MANAGEMENT_ROUTES there.
 */
export const WEBHOOK_ROUTES = {
  listWebhookEndpoints: { method: 'GET', path: '/accounts/{accountId}/webhooks' },
  createWebhookEndpoint: { method: 'POST', path: '/accounts/{accountId}/webhooks' },
  updateWebhookEndpoint: { method: 'PATCH', path: '/accounts/{accountId}/webhooks/{endpointId}' },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/accounts/{accountId}/webhooks/{endpointId}' },
  rotateWebhookSecret: { method: 'POST', path: '/accounts/{accountId}/webhooks/{endpointId}/rotate-secret' },
  testWebhookEndpoint: { method: 'POST', path: '/accounts/{accountId}/webhooks/{endpointId}/test' },
  listWebhookDeliveries: { method: 'GET', path: '/accounts/{accountId}/webhook-deliveries' },
  replayWebhookDelivery: { method: 'POST', path: '/accounts/{accountId}/webhook-deliveries/{deliveryId}/replay' },
} as const;
