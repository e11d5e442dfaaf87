/**
 * The webhook part of /asyncapi.json (docs/webhooks.md): the requests the service sends to an
 * account's endpoints. Payload and header schemas are made by `z.toJSONSchema` from the zod
 * schemas the delivery code is typed by (shared/webhooks/event-schema.ts), as realtime-messages.ts
 * does for the realtime messages; the example is signed by the code that signs deliveries.
 */
import { z } from 'zod';
import {
  JobCompletedEvent,
  JobFailedEvent,
  WebhookHeaders,
  WebhookTestEvent,
  type WebhookEvent,
} from '../../shared/webhooks/event-schema.js';
import { signedHeaders } from '../../shared/webhooks/signature.js';
import type { JsonSchema } from './realtime-messages.js';

type Ref = { $ref: string };
const ref = ($ref: string): Ref => ({ $ref });

/** Standard Webhooks' example secret: anyone can check the example's signature with it. */
export const EXAMPLE_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const EXAMPLE_ID = 'msg_2ejv3bpr9wnqm8y5k1c0t4dz6w';
const EXAMPLE_SECONDS = 1_795_000_000;

function toSchema(schema: z.ZodType): JsonSchema {
  // draft-07 is the base of the AsyncAPI Schema Object (AsyncAPI 3.0 §Schema Object).
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    unrepresentable: 'throw',
  }) as JsonSchema;
  return rest;
}

function example(name: string, event: WebhookEvent): { name: string; headers: Record<string, string>; payload: WebhookEvent } {
  const headers = signedHeaders([EXAMPLE_SECRET], EXAMPLE_ID, EXAMPLE_SECONDS, JSON.stringify(event));
  return { name, headers: { ...headers, 'content-type': 'application/json' }, payload: event };
}

/** Message key → payload schema, for the document and its test. */
export function webhookMessageSchemas(): Record<string, JsonSchema> {
  return {
    webhookJobCompleted: toSchema(JobCompletedEvent),
    webhookJobFailed: toSchema(JobFailedEvent),
    webhookTest: toSchema(WebhookTestEvent),
  };
}

export function webhookHeadersSchema(): JsonSchema {
  return toSchema(WebhookHeaders);
}

const HTTP = { http: { method: 'POST', bindingVersion: '0.3.0' } };

/** Component messages of the webhook requests. */
export function webhookMessages(): Record<string, unknown> {
  const payloads = webhookMessageSchemas();
  const headers = webhookHeadersSchema();
  const at = '2026-11-21T12:00:00.000Z';
  const job = { job_id: 'job_0123456789abcdef', kind: 'file' };
  const message = (key: string, name: WebhookEvent['type'], title: string, summary: string, ex: ReturnType<typeof example>) => ({
    name,
    title,
    summary,
    contentType: 'application/json',
    headers,
    payload: payloads[key],
    examples: [ex],
    bindings: { http: { bindingVersion: '0.3.0' } },
  });
  return {
    webhookJobCompleted: message(
      'webhookJobCompleted',
      'job.completed',
      'Job completed',
      'An async job completed: its digest and size for single-digest kinds, its item count for a batch; the rest from GET /v2/jobs/{id}.',
      example('file of "abc"', {
        type: 'job.completed',
        timestamp: at,
        data: { ...job, status: 'completed', hash: '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7', size: 3 },
      }),
    ),
    webhookJobFailed: message(
      'webhookJobFailed',
      'job.failed',
      'Job failed',
      'An async job failed for good (after its retries), with the error of the catalog.',
      example('digest mismatch', {
        type: 'job.failed',
        timestamp: at,
        data: {
          ...job,
          status: 'failed',
          error: { code: 'HASH_MISMATCH', message: 'The SHA-224 of the received bytes differs from the expected one' },
        },
      }),
    ),
    webhookTest: message(
      'webhookTest',
      'webhook.test',
      'Test event',
      'Sent on request from the management API (POST …/webhooks/{endpointId}/test): one attempt, never filtered.',
      example('test', { type: 'webhook.test', timestamp: at, data: { message: 'sha224d test event' } }),
    ),
  };
}

/** The receiver "server": whatever URL an endpoint registered. */
export const WEBHOOK_SERVER = {
  host: '{receiver}',
  protocol: 'https',
  title: 'Webhook receiver',
  description:
    'An endpoint URL registered with the management API: https, or plain http to an address in WEBHOOK_ALLOW_CIDRS. The service is the client here.',
  variables: { receiver: { description: "host[:port] of the endpoint's URL" } },
};

export const WEBHOOK_CHANNEL = {
  address: null,
  title: 'Webhook endpoint',
  servers: [ref('#/servers/webhookReceiver')],
  description:
    'Each async job that finishes is POSTed to every enabled endpoint of its account whose `eventTypes` take it (or to the one named at submission). Any 2xx is delivered; 410 disables the endpoint; anything else is retried on WEBHOOK_RETRY_SCHEDULE with the same `webhook-id` and body (docs/webhooks.md "Retries and outcomes"). Verify the raw body with Standard Webhooks 1.0 before parsing it.',
  messages: {
    jobCompleted: ref('#/components/messages/webhookJobCompleted'),
    jobFailed: ref('#/components/messages/webhookJobFailed'),
    test: ref('#/components/messages/webhookTest'),
  },
};

export const WEBHOOK_OPERATION = {
  action: 'send',
  channel: ref('#/channels/webhooks'),
  title: 'Deliver a webhook',
  summary: 'One signed POST per attempt, at least once: receivers de-duplicate on `webhook-id`.',
  messages: ['jobCompleted', 'jobFailed', 'test'].map((m) => ref(`#/channels/webhooks/messages/${m}`)),
  bindings: HTTP,
};
