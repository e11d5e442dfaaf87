/**
 * Request and response schemas of /v1 (docs/api.md "v1 Set A", "v1 Set B"), the one source of
 * validation and of the OpenAPI document. Set A names fields in camelCase, Set B in snake_case,
 * exactly as the contract's tables; v1 timestamps have second precision.
 */
import { URL_TIMEOUT_DEFAULT_MS, URL_TIMEOUT_MAX_MS } from '../../shared/net/url-timeout.js';
import { checkEncoded, checkEncodedItems, chunkSize, hexDigest, inputEncoding, outputFormat, requiredString, z } from './common.js';
import { Receipt } from './proof.js';
import { BATCH_MAX_ITEMS, logFlag } from './v2.js';

/** URLs longer than this are refused before any work (docs/v1.md "Decisions"). */
export const URL_MAX_CHARS = 2048;
/** hash1/hash2 of /v1/compare: hex of any digest up to SHA-512's 128 characters. */
const COMPARE_HEX = /^[0-9a-fA-F]{1,128}$/;

const timestamp = z
  .string()
  .openapi({ format: 'date-time', description: 'ISO 8601 UTC, second precision', example: '2026-11-21T12:00:00Z' });
const algorithm = z.literal('sha224');
const integer = z.number().int();

function itemsOf<T extends z.ZodType>(item: T) {
  return z
    .array(item, { error: (issue) => (issue.input === undefined ? 'The items parameter is required' : 'items must be an array') })
    .min(1, { message: 'items must hold at least one entry' })
    .max(BATCH_MAX_ITEMS, { message: `items may hold at most ${BATCH_MAX_ITEMS} entries` });
}

const itemId = requiredString('id')
  .max(256, { message: 'id must be at most 256 characters' })
  .optional()
  .openapi({ description: "Defaults to the item's index" });

// Request schemas end in a transform that checks the encoded fields and measures them
// (api/schemas/common.ts checkEncoded), and names them as the operations do (api/operations/).

// ---- Set A requests --------------------------------------------------------------------------

export const CamelHashRequest = z
  .object({ data: requiredString('data'), encoding: inputEncoding('encoding'), outputFormat: outputFormat('outputFormat') })
  .openapi('V1HashRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.data, body.encoding, ['data']);
    return input ? { input, output: body.outputFormat } : z.NEVER;
  });

export const CamelVerifyRequest = z
  .object({ data: requiredString('data'), hash: hexDigest('hash'), encoding: inputEncoding('encoding') })
  .openapi('V1VerifyRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.data, body.encoding, ['data']);
    return input ? { input, expected: body.hash } : z.NEVER;
  });

export const FileFieldsA = z.object({ outputFormat: outputFormat('outputFormat', ['hex', 'base64']) });

export const CamelHmacRequest = z
  .object({
    data: requiredString('data'),
    key: requiredString('key'),
    encoding: inputEncoding('encoding'),
    keyEncoding: inputEncoding('keyEncoding'),
    outputFormat: outputFormat('outputFormat', ['hex', 'base64']),
  })
  .openapi('V1HmacRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.data, body.encoding, ['data']);
    const key = input && checkEncoded(ctx, body.key, body.keyEncoding, ['key']);
    return input && key ? { input, key, output: body.outputFormat } : z.NEVER;
  });

// ---- Set B requests --------------------------------------------------------------------------

export const TextHashRequest = z
  .object({ text: requiredString('text'), encoding: inputEncoding('encoding') })
  .openapi('V1TextHashRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.text, body.encoding, ['text']);
    return input ? { input } : z.NEVER;
  });

export const FileFieldsB = z.object({ chunk_size: chunkSize('chunk_size') });

export const UrlHashRequest = z
  .object({
    url: requiredString('url')
      .max(URL_MAX_CHARS, { message: `url must be at most ${URL_MAX_CHARS} characters` })
      .openapi({ format: 'uri' }),
    timeout: z
      .number({ error: () => 'timeout must be a number of seconds' })
      .optional()
      .openapi({
        description: `Seconds, greater than 0 and at most ${URL_TIMEOUT_MAX_MS / 1000}; default ${URL_TIMEOUT_DEFAULT_MS / 1000}`,
      }),
    // An extension of Set B, as on /v2/hash (docs/proving.md): absent, the answer is the contract's.
    log: logFlag,
  })
  .openapi('V1UrlHashRequest');

export const TextVerifyRequest = z
  .object({ hash: hexDigest('hash'), text: requiredString('text'), encoding: inputEncoding('encoding') })
  .openapi('V1TextVerifyRequest')
  .transform((body, ctx) => {
    const input = checkEncoded(ctx, body.text, body.encoding, ['text']);
    return input ? { input, expected: body.hash } : z.NEVER;
  });

export const FileVerifyFields = z.object({ hash: hexDigest('hash') });

/** An item without an id gets its index ("0", "1", …), as Set B's tables say. */
const idOf = (item: { id?: string | undefined }, index: number): string => item.id ?? String(index);

export const BatchHashRequest = z
  .object({ items: itemsOf(z.object({ id: itemId, text: requiredString('text') })), encoding: inputEncoding('encoding') })
  .openapi('V1BatchHashRequest')
  .transform((body, ctx) => {
    const bytes = checkEncodedItems(ctx, body.items, 'text', body.encoding);
    if (bytes === undefined) return z.NEVER;
    const items = body.items.map((item, index) => ({ id: idOf(item, index), data: item.text }));
    return { items, encoding: body.encoding, bytes };
  });

export const BatchVerifyRequest = z
  .object({
    items: itemsOf(z.object({ id: itemId, hash: hexDigest('hash'), text: requiredString('text') })),
    encoding: inputEncoding('encoding'),
  })
  .openapi('V1BatchVerifyRequest')
  .transform((body, ctx) => {
    const bytes = checkEncodedItems(ctx, body.items, 'text', body.encoding);
    if (bytes === undefined) return z.NEVER;
    const items = body.items.map((item, index) => ({ id: idOf(item, index), data: item.text, expected: item.hash }));
    return { items, encoding: body.encoding, bytes };
  });

function compareHex(field: string) {
  return requiredString(field).regex(COMPARE_HEX, { message: `${field} must be a hexadecimal string of 1 to 128 characters` });
}

export const CompareRequest = z.object({ hash1: compareHex('hash1'), hash2: compareHex('hash2') }).openapi('V1CompareRequest');

// ---- Set A responses (docs/api.md "Resources") -------------------------------------

export const CamelHashResponse = z
  .object({ success: z.literal(true), hash: z.string(), algorithm, encoding: z.enum(['hex', 'base64']), timestamp })
  .openapi('V1HashResponse');

export const CamelVerifyResponse = z
  .object({ success: z.literal(true), verified: z.boolean(), algorithm, timestamp })
  .openapi('V1VerifyResponse');

export const CamelFileHashResponse = z
  .object({
    success: z.literal(true),
    hash: z.string(),
    algorithm,
    encoding: z.enum(['hex', 'base64']),
    fileName: z.string(),
    fileSize: integer,
    timestamp,
  })
  .openapi('V1FileHashResponse');

export const CamelHmacResponse = z
  .object({ success: z.literal(true), hmac: z.string(), algorithm, encoding: z.enum(['hex', 'base64']), timestamp })
  .openapi('V1HmacResponse');

export const CamelUsageResponse = z
  .object({
    success: z.literal(true),
    account: z.object({
      tier: z.string(),
      quota: z.object({
        daily: integer.openapi({ description: '-1 when the plan has no daily quota' }),
        used: integer,
        remaining: integer.openapi({ description: '-1 when the plan has no daily quota' }),
        resetTime: timestamp,
      }),
      rateLimit: z.object({ requestsPerSecond: integer.openapi({ description: '-1 when unlimited' }), maxFileSize: integer }),
    }),
    timestamp,
  })
  .openapi('V1UsageResponse');

// ---- Set B responses --------------------------------------------------------------------------

export const TextHashResponse = z.object({ hash: z.string(), input_length: integer, timestamp }).openapi('V1TextHashResponse');

export const SnakeFileHashResponse = z
  .object({ hash: z.string(), filename: z.string(), filesize: integer, timestamp })
  .openapi('V1HashFileResponse');

export const UrlHashResponse = z
  .object({
    hash: z.string(),
    url: z.string(),
    content_length: integer,
    timestamp,
    receipt: Receipt.optional().openapi({ description: 'With `"log": true`: the transparency log receipt (docs/proving.md)' }),
  })
  .openapi('V1UrlHashResponse');

export const TextVerifyResponse = z
  .object({ valid: z.boolean(), expected: z.string(), computed: z.string(), timestamp })
  .openapi('V1TextVerifyResponse');

export const FileVerifyResponse = z
  .object({ valid: z.boolean(), expected: z.string(), computed: z.string(), filename: z.string(), timestamp })
  .openapi('V1FileVerifyResponse');

export const BatchHashResponse = z
  .object({ results: z.array(z.object({ id: z.string(), hash: z.string(), input_length: integer })), count: integer, timestamp })
  .openapi('V1BatchHashResponse');

export const BatchVerifyResponse = z
  .object({
    results: z.array(z.object({ id: z.string(), valid: z.boolean(), expected: z.string(), computed: z.string() })),
    count: integer,
    timestamp,
  })
  .openapi('V1BatchVerifyResponse');

export const CompareResponse = z.object({ match: z.boolean(), timestamp }).openapi('V1CompareResponse');

export const StatusResponse = z
  .object({
    status: z.enum(['operational', 'degraded']),
    version: z.string(),
    rate_limit: z
      .object({ limit: integer, remaining: integer, reset: timestamp })
      .openapi({ description: 'The v1 Set B per-minute window; -1 when unlimited' }),
    account: z.object({
      plan: z.string(),
      requests_today: integer,
      requests_quota: integer.openapi({ description: '-1 when the plan has no daily quota' }),
    }),
    timestamp,
  })
  .openapi('V1StatusResponse');

export const ErrorResponseV1 = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.union([z.string(), z.number()])) }) })
  .openapi('V1ErrorResponse');
