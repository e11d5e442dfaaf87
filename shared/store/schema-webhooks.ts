/** Table types of migration 0007_webhooks (shared/store/migrations/0007-webhooks.ts). */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  description: string;
  /** JSON array of event types; '[]' = all job events. */
  event_types: string;
  disabled_at: number | null;
  disabled_reason: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_expires_at: number | null;
  failing_since: number | null;
  created_at: number;
  rotated_at: number | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  account_id: string;
  event_type: string;
  event_key: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_response: string | null;
  is_test: number;
  created_at: number;
  updated_at: number;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
