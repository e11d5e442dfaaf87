/**
 * Bulk jobs (docs/api.md "Bulk jobs"): the JSON bodies of POST /v2/bulk (a list of URLs, an S3
 * bucket) and the answers. An NDJSON body is read line by line (api/uploads/bulk-items.ts), not here.
 */
import { BULK_MAX_URLS } from '../../shared/bulk/model.js';
import { requiredString, timestamp, z } from './common.js';

export const BulkUrlsRequest = z
  .object({
    source: z.literal('urls'),
    urls: z
      .array(requiredString('url').max(2048, { message: 'a URL must be at most 2048 characters' }), {
        error: () => 'urls must be an array of strings',
      })
      .min(1, { message: 'urls must hold at least one URL' })
      .max(BULK_MAX_URLS, { message: `urls may hold at most ${BULK_MAX_URLS} URLs` }),
    timeout: z.number().int().min(1).max(60).optional().openapi({ description: 'Seconds per URL fetch (default 10, at most 60)' }),
  })
  .openapi('BulkUrlsRequest');

export const BulkS3Request = z
  .object({
    source: z.literal('s3'),
    bucket: z
      .string()
      .min(3)
      .max(63)
      .regex(/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/, { message: 'bucket must be a valid S3 bucket name' }),
    prefix: z.string().max(1024).default(''),
    endpoint: z
      .string()
      .max(2048)
      .optional()
      .openapi({ description: 'An S3-compatible endpoint (https://…); default AWS S3 in `region`. Checked like a URL job.' }),
    region: z.string().min(1).max(64).default('us-east-1'),
    force_path_style: z.boolean().default(true),
    credentials: z
      .object({
        access_key_id: z.string().min(1).max(256),
        secret_access_key: z.string().min(1).max(256),
        session_token: z.string().min(1).max(4096).optional(),
      })
      .openapi({ description: 'Read-only credentials: sealed at once, never stored, logged or returned' }),
  })
  .openapi('BulkS3Request');

export const BulkJsonRequest = z.discriminatedUnion('source', [BulkUrlsRequest, BulkS3Request], {
  error: () => "source must be 'urls' or 's3' (items are sent as an application/x-ndjson body)",
});

const bulkState = z.enum(['receiving', 'running', 'completed', 'cancelled']);

export const BulkStatus = z
  .object({
    success: z.literal(true),
    id: z.string(),
    source: z.enum(['items', 'urls', 's3']),
    status: bulkState,
    items: z.object({
      total: z.number().int(),
      done: z.number().int().openapi({ description: 'Items hashed' }),
      failed: z.number().int().openapi({ description: 'Items that are an error line in the results' }),
      pending: z.number().int(),
    }),
    chunks: z.object({ total: z.number().int(), done: z.number().int() }),
    bytes: z.number().int().openapi({ description: 'Bytes hashed so far' }),
    rate_items_per_second: z.number().openapi({ description: 'Items finished per second since the chunks were queued' }),
    eta_seconds: z
      .number()
      .nullable()
      .openapi({ description: 'Seconds left at the current rate; null before a rate is known or once finished' }),
    created_at: timestamp,
    finished_at: timestamp.optional(),
    status_url: z.string(),
    results_url: z.string(),
    summary: z
      .object({ items: z.number().int(), failed: z.number().int(), bytes: z.number().int(), duration_ms: z.number().int() })
      .optional()
      .openapi({ description: 'Once completed or cancelled' }),
  })
  .openapi('BulkStatus');

export const BulkParams = z.object({ id: z.string().min(1).max(64).openapi({ description: 'The `id` of the 202 answer' }) });
