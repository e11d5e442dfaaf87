import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { generationRegistrar, type Schema } from '../openapi-kit.js';
import { z } from '../schemas/common.js';
import * as v1 from '../schemas/v1.js';

const file = { type: 'string', format: 'binary' } as const;

/**
 * The /v1 paths of the OpenAPI document, from the schemas that validate them. v1 accepts
 * `Authorization: Bearer` and `api_key` (SPEC "Authentication"); the security schemes are
 * registered by api/openapi.ts.
 */
export function registerV1Paths(registry: OpenAPIRegistry): void {
  const { security, error, errors, ok, post, get } = generationRegistrar(registry, {
    security: [{ Bearer: [] }, { ApiKeyQuery: [] }],
    errorSchema: v1.ErrorResponseV1,
  });
  const upload = (path: string, summary: string, fields: z.ZodObject, response: Schema) =>
    registry.registerPath({
      method: 'post',
      path,
      summary,
      security,
      request: { body: { required: true, content: { 'multipart/form-data': { schema: fields.extend({ file: z.string().openapi(file) }) } } } },
      responses: { ...ok(response), 413: error('FILE_TOO_LARGE'), ...errors },
    });

  // Set A
  post('/v1/hash', 'SHA-224 of data (Set A)', v1.HashRequestA, v1.HashResponseA);
  registry.registerPath({
    method: 'post',
    path: '/v1/verify',
    summary: 'Verify data against a SHA-224 digest (Set A body; a Set B body with `text` answers in Set B shape)',
    security,
    request: { body: { required: true, content: { 'application/json': { schema: v1.VerifyRequestA.or(v1.TextVerifyRequest) } } } },
    responses: { 200: { description: 'OK', content: { 'application/json': { schema: v1.VerifyResponseA.or(v1.TextVerifyResponse) } } }, ...errors },
  });
  upload('/v1/file/hash', 'SHA-224 of an uploaded file (multipart field "file") (Set A)', v1.FileFieldsA, v1.FileHashResponseA);
  post('/v1/hmac', 'HMAC-SHA-224 (Set A)', v1.HmacRequestA, v1.HmacResponseA);
  get('/v1/usage', 'Account usage and quota (Set A)', v1.UsageResponseA);

  // Set B
  post('/v1/hash/text', 'SHA-224 of text (Set B)', v1.TextHashRequest, v1.TextHashResponse);
  upload('/v1/hash/file', 'SHA-224 of an uploaded file (multipart field "file") (Set B)', v1.FileFieldsB, v1.FileHashResponseB);
  post('/v1/hash/url', 'Fetch a URL and hash its body (Set B)', v1.UrlHashRequest, v1.UrlHashResponse, {
    413: error('FILE_TOO_LARGE'),
    502: error('URL_FETCH_FAILED'),
  });
  post('/v1/verify/text', 'Verify text against a SHA-224 digest (Set B)', v1.TextVerifyRequest, v1.TextVerifyResponse);
  upload('/v1/verify/file', 'Verify an uploaded file against a SHA-224 digest (Set B)', v1.FileVerifyFields, v1.FileVerifyResponse);
  post('/v1/batch/hash', 'Hash up to 1000 texts (Set B)', v1.BatchHashRequest, v1.BatchHashResponse);
  post('/v1/batch/verify', 'Verify up to 1000 texts (Set B)', v1.BatchVerifyRequest, v1.BatchVerifyResponse);
  post('/v1/compare', 'Compare two hex hashes in constant time (Set B)', v1.CompareRequest, v1.CompareResponse);
  get('/v1/status', 'Service status, rate limit and account (Set B)', v1.StatusResponse);
}
