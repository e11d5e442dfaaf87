/**
 * The zod schemas of what a webhook request carries (docs/webhooks.md "Events" and "Signatures"):
 * the event bodies and the three Standard Webhooks headers. events.ts and signature.ts take their
 * types from here, and /asyncapi.json its payload and header schemas (api/docs/webhook-messages.ts),
 * so the published contract is the shape the delivery code is compiled against.
 */
import { z } from 'zod';

/** ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
const Timestamp = z.iso.datetime({ precision: 3 }).describe('When the event happened (for a job: when it finished), not when it was sent');

const JobError = z
  .strictObject({ code: z.string(), message: z.string(), details: z.string().optional() })
  .describe('The error of docs/api.md "Errors" the job failed with');

const job = {
  job_id: z.string().describe('The id GET /v2/jobs/{id} answers for'),
  kind: z.string().describe('The job kind: batch, file, stream, …'),
};

export const JobCompletedData = z.strictObject({
  ...job,
  status: z.literal('completed'),
  hash: z
    .string()
    .regex(/^[0-9a-f]{56}$/)
    .optional()
    .describe('Lower-case hex SHA-224 of the input, for kinds that yield one digest'),
  size: z.number().int().nonnegative().optional().describe('Bytes hashed, with `hash`'),
  count: z.number().int().nonnegative().optional().describe("Items in a batch job's result"),
});

export const JobFailedData = z.strictObject({ ...job, status: z.literal('failed'), error: JobError });

export const JobCompletedEvent = z.strictObject({ type: z.literal('job.completed'), timestamp: Timestamp, data: JobCompletedData });
export const JobFailedEvent = z.strictObject({ type: z.literal('job.failed'), timestamp: Timestamp, data: JobFailedData });
export const WebhookTestEvent = z.strictObject({
  type: z.literal('webhook.test'),
  timestamp: Timestamp,
  data: z.strictObject({ message: z.string() }),
});

export const WebhookEvent = z.discriminatedUnion('type', [JobCompletedEvent, JobFailedEvent, WebhookTestEvent]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
export type JobEventData = z.infer<typeof JobCompletedData> | z.infer<typeof JobFailedData>;

const SIGNATURE_ENTRY = 'v1,[A-Za-z0-9+/]+={0,2}';

/** The Standard Webhooks 1.0 headers of every delivery attempt (others, as HTTP adds them, may be present). */
export const WebhookHeaders = z.looseObject({
  'webhook-id': z
    .string()
    .regex(/^msg_[0-9a-hjkmnp-tv-z]{26}$/)
    .describe("The delivery's id: the same on every retry and replay; receivers de-duplicate on it"),
  'webhook-timestamp': z
    .string()
    .regex(/^\d+$/)
    .describe('Unix seconds of this attempt; receivers refuse one more than 5 minutes from their clock'),
  'webhook-signature': z
    .string()
    .regex(new RegExp(`^${SIGNATURE_ENTRY}( ${SIGNATURE_ENTRY})*$`))
    .describe(
      'Space-separated `v1,<base64 HMAC-SHA256>` entries, one per active secret (two during a rotation), over `{webhook-id}.{webhook-timestamp}.{raw body}`',
    ),
});
/** What the signer returns: the three headers alone. */
export type SignedHeaders = Pick<z.infer<typeof WebhookHeaders>, 'webhook-id' | 'webhook-timestamp' | 'webhook-signature'>;
