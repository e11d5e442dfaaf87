/** Request and response schemas of /v2 (SPEC "v2"), the one source of validation and OpenAPI. */
import { booleanString, chunkSize, hexDigest, inputEncoding, outputFormat, requiredString, timestamp, z } from './common.js';

export const BATCH_MAX_ITEMS = 1000;

export const HashRequest = z
  .object({ data: requiredString('data'), encoding: inputEncoding('encoding'), output: outputFormat('output') })
  .openapi('HashRequest');

export const VerifyRequest = z
  .object({ data: requiredString('data'), hash: hexDigest('hash'), encoding: inputEncoding('encoding') })
  .openapi('VerifyRequest');

export const HmacRequest = z
  .object({
    data: requiredString('data'),
    key: requiredString('key'),
    key_encoding: inputEncoding('key_encoding'),
    encoding: inputEncoding('encoding'),
    output: outputFormat('output', ['hex', 'base64']),
  })
  .openapi('HmacRequest');

const BatchItem = z.object({ id: requiredString('id').max(256, { message: 'id must be at most 256 characters' }), data: requiredString('data') });

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
  .openapi('BatchRequest');

export const FileFields = z.object({ chunk_size: chunkSize('chunk_size'), output: outputFormat('output') });

export const AsyncQuery = z.object({ async: booleanString('async').default(false) });

export const StreamQuery = z.object({ chunk_size: chunkSize('chunk_size'), output: outputFormat('output'), async: booleanString('async').default(false) });

const algorithm = z.literal('SHA-224');
const processingTime = z.number().int().openapi({ description: 'Server-side processing time in milliseconds' });

export const HashResponse = z
  .object({ success: z.literal(true), hash: z.string(), algorithm, encoding: z.string(), timestamp, processing_time_ms: processingTime })
  .openapi('HashResponse');

export const VerifyResponse = z
  .object({ success: z.literal(true), valid: z.boolean(), message: z.string(), expected_hash: z.string(), provided_hash: z.string() })
  .openapi('VerifyResponse');

export const HmacResponse = z
  .object({ success: z.literal(true), hmac: z.string(), algorithm: z.literal('HMAC-SHA-224'), encoding: z.string(), timestamp, processing_time_ms: processingTime })
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

export const FileResponse = z
  .object({
    success: z.literal(true),
    hash: z.string(),
    algorithm,
    encoding: z.string(),
    filename: z.string(),
    size: z.number().int(),
    chunk_size: z.number().int(),
    timestamp,
    processing_time_ms: processingTime,
  })
  .openapi('FileResponse');

export const StreamResponse = z
  .object({ success: z.literal(true), hash: z.string(), algorithm, encoding: z.string(), size: z.number().int(), timestamp, processing_time_ms: processingTime })
  .openapi('StreamResponse');

export const AcceptedResponse = z
  .object({ success: z.literal(true), job_id: z.string(), status: z.enum(['queued', 'active', 'completed', 'failed']), status_url: z.string() })
  .openapi('AcceptedResponse');

export const ErrorResponse = z
  .object({
    success: z.literal(false),
    error: z.object({ code: z.string(), message: z.string(), details: z.string(), retry_after: z.number().int().optional() }),
  })
  .openapi('ErrorResponse');
