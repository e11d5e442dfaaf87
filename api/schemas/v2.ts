/** Request and response schemas of /v2 (docs/api.md "v2 endpoints"), the one source of validation and OpenAPI. */
import {
  booleanString,
  checkEncoded,
  checkEncodedItems,
  chunkSize,
  hexDigest,
  inputEncoding,
  outputFormat,
  requiredString,
  timestamp,
  z,
} from './common.js';

import { Receipt } from './proof.js';

export const BATCH_MAX_ITEMS = 1000;

/** `"log": true` also logs the digest in the transparency log (docs/proving.md). */
export const logFlag = z
  .boolean()
  .optional()
  .default(false)
  .openapi({ description: 'Also log the digest in the transparency log; the answer carries a receipt' });

// Request schemas end in a transform that checks the encoded fields and measures them
// (api/schemas/common.ts checkEncoded): handlers receive inputs known to decode.

export const HashRequest = z
  .object({
    data: requiredString('data'),
    encoding: inputEncoding('encoding'),
    output: outputFormat('output'),
    log: logFlag,
  })
  .openapi('HashRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.data, body.encoding, ['data']);
    return input ? { input, output: body.output, log: body.log } : z.NEVER;
  });

export const VerifyRequest = z
  .object({ data: requiredString('data'), hash: hexDigest('hash'), encoding: inputEncoding('encoding') })
  .openapi('VerifyRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.data, body.encoding, ['data']);
    return input ? { input, expected: body.hash } : z.NEVER;
  });

export const HmacRequest = z
  .object({
    data: requiredString('data'),
    key: requiredString('key'),
    key_encoding: inputEncoding('key_encoding'),
    encoding: inputEncoding('encoding'),
    output: outputFormat('output', ['hex', 'base64']),
  })
  .openapi('HmacRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.data, body.encoding, ['data']);
    const key = input && checkEncoded(ctx, body.key, body.key_encoding, ['key']);
    return input && key ? { input, key, output: body.output } : z.NEVER;
  });

const BatchItem = z.object({
  id: requiredString('id').max(256, { message: 'id must be at most 256 characters' }),
  data: requiredString('data'),
});

export const BatchRequest = z
  .object({
    items: z
      .array(BatchItem, { error: (issue) => (issue.input === undefined ? 'The items parameter is required' : 'items must be an array') })
      .min(1, { message: 'items must hold at least one entry' })
      .max(BATCH_MAX_ITEMS, { message: `items may hold at most ${BATCH_MAX_ITEMS} entries` }),
    parallel: z.boolean({ error: () => 'parallel must be a boolean' }).default(true),
    encoding: inputEncoding('encoding'),
    output: outputFormat('output'),
  })
  .openapi('BatchRequest')
  .transform((body, ctx) => {
    const bytes = checkEncodedItems(ctx, body.items, 'data', body.encoding);
    return bytes === undefined ? z.NEVER : { ...body, bytes };
  });

/** `log` as a form field or query parameter: a string, like the other fields there. */
const logField = booleanString('log').default(false).openapi({
  type: 'boolean',
  description:
    'Also log the digest in the transparency log; the answer (or, with `async=true`, the completed job read from GET /v2/jobs/{id}) carries a receipt (docs/proving.md)',
});

export const FileFields = z.object({ chunk_size: chunkSize('chunk_size'), output: outputFormat('output'), log: logField });

/**
 * Verify on ingest for /v2/file and /v2/stream (docs/decisions.md "Resumable uploads"): the
 * SHA-224 the uploaded bytes must have. A match answers `verified: true`; a mismatch is 422
 * HASH_MISMATCH naming `expected` and `computed` (a failed job when async).
 */
export const ExpectedDigestHeaders = z.object({
  'x-expected-sha224': hexDigest('X-Expected-SHA224')
    .optional()
    .openapi({ description: 'The hex SHA-224 the bytes must have: a match answers `verified: true`, a mismatch 422 HASH_MISMATCH' }),
});

/**
 * Names one of the account's webhook endpoints for an async job (docs/webhooks.md "Naming an
 * endpoint at submission"): a query parameter, so JSON, multipart and raw bodies carry it alike
 * and it is checked before any body is read.
 */
const webhookEndpointId = z.string().min(1).max(64).optional().openapi({
  description:
    "With `async=true`: the id of one of the account's enabled webhook endpoints; the job's events go to it alone, whatever its event filter. Unknown, another account's or disabled: 400 INVALID_INPUT.",
});

export const AsyncQuery = z.object({ async: booleanString('async').default(false), webhook_endpoint_id: webhookEndpointId });

export const StreamQuery = z.object({
  chunk_size: chunkSize('chunk_size'),
  output: outputFormat('output'),
  async: booleanString('async').default(false),
  webhook_endpoint_id: webhookEndpointId,
  log: logField,
});

const algorithm = z.literal('SHA-224');
const processingTime = z.number().int().openapi({ description: 'Server-side processing time in milliseconds' });

export const HashResponse = z
  .object({
    success: z.literal(true),
    hash: z.string(),
    algorithm,
    encoding: z.string(),
    timestamp,
    processing_time_ms: processingTime,
    receipt: Receipt.optional().openapi({ description: 'With `"log": true`: the transparency log receipt (docs/proving.md)' }),
  })
  .openapi('HashResponse');

export const VerifyResponse = z
  .object({ success: z.literal(true), valid: z.boolean(), message: z.string(), expected_hash: z.string(), provided_hash: z.string() })
  .openapi('VerifyResponse');

export const HmacResponse = z
  .object({
    success: z.literal(true),
    hmac: z.string(),
    algorithm: z.literal('HMAC-SHA-224'),
    encoding: z.string(),
    timestamp,
    processing_time_ms: processingTime,
  })
  .openapi('HmacResponse');

export const BatchResponse = z
  .object({
    success: z.literal(true),
    results: z.array(z.object({ id: z.string(), hash: z.string() })),
    count: z.number().int(),
    algorithm,
    encoding: z.string(),
    timestamp,
    processing_time_ms: processingTime,
  })
  .openapi('BatchResponse');

/** Present (true) when the request named an expected SHA-224 and the bytes have it. */
const verifiedField = z
  .literal(true)
  .optional()
  .openapi({ description: 'Present when X-Expected-SHA224 (or tus metadata `sha224`) was sent: the bytes have that digest' });

/** With `log`: the transparency log receipt (docs/proving.md), on the answer or on the completed job. */
const jobReceipt = Receipt.optional();

export const FileResponse = z
  .object({
    success: z.literal(true),
    hash: z.string(),
    algorithm,
    encoding: z.string(),
    filename: z.string(),
    size: z.number().int(),
    chunk_size: z.number().int(),
    verified: verifiedField,
    timestamp,
    processing_time_ms: processingTime,
    receipt: jobReceipt,
  })
  .openapi('FileResponse');

export const StreamResponse = z
  .object({
    success: z.literal(true),
    hash: z.string(),
    algorithm,
    encoding: z.string(),
    size: z.number().int(),
    chunk_size: z.number().int(),
    verified: verifiedField,
    timestamp,
    processing_time_ms: processingTime,
    receipt: jobReceipt,
  })
  .openapi('StreamResponse');

const jobState = z.enum(['queued', 'active', 'completed', 'failed']);
const jobId = z.string().openapi({ description: 'The job id; GET /v2/jobs/{id} reports its state' });

export const AcceptedResponse = z
  .object({ success: z.literal(true), job_id: jobId, status: jobState, status_url: z.string() })
  .openapi('AcceptedResponse');

const errorFields = { code: z.string(), message: z.string(), details: z.string() };

export const ErrorResponse = z
  .object({
    success: z.literal(false),
    error: z.object({
      ...errorFields,
      retry_after: z.number().int().optional().openapi({ description: 'Seconds to wait (RATE_LIMIT_EXCEEDED)' }),
      job_id: z.string().optional().openapi({ description: 'The job that goes on (JOB_TIMEOUT)' }),
    }),
  })
  .openapi('ErrorResponse');

// ---- GET /v2/jobs/{id} (api/v2/render.ts jobStatusBody) ---------------------------------------

const completed = { job_id: z.string(), status: z.literal('completed') };

export const JobPending = z
  .object({ success: z.literal(true), job_id: z.string(), status: z.enum(['queued', 'active']) })
  .openapi('JobPending', { description: 'A job still waiting for a worker (`queued`) or being worked on (`active`).' });

export const JobFailed = z
  .object({ success: z.literal(false), job_id: z.string(), status: z.literal('failed'), error: z.object(errorFields) })
  .openapi('JobFailed', { description: 'A failed job: the error the synchronous call would have answered.' });

export const BatchJobCompleted = BatchResponse.extend(completed).openapi('BatchJobCompleted');
export const FileJobCompleted = FileResponse.extend(completed).openapi('FileJobCompleted');
export const StreamJobCompleted = StreamResponse.extend(completed).openapi('StreamJobCompleted');
export const DigestJobCompleted = z
  .object({
    success: z.literal(true),
    digest: z.string().openapi({ description: 'Lowercase hex' }),
    timestamp,
    receipt: jobReceipt,
    ...completed,
  })
  .openapi('DigestJobCompleted', {
    description: 'A finished hash, HMAC, verify or URL job, fetched after its synchronous call answered 504 JOB_TIMEOUT.',
  });

export const JobStatus = z
  .union([JobPending, BatchJobCompleted, FileJobCompleted, StreamJobCompleted, DigestJobCompleted, JobFailed])
  .openapi('JobStatus', {
    description: "A job's state; when completed, the body its synchronous call would have returned plus `job_id` and `status`.",
  });
