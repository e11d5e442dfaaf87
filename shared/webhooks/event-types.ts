/** The webhook event types; no imports, so the dashboard's browser code can read the list too. */
export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
