import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import * as v2 from './schemas/v2.js';
import { registerV1Paths } from './v1/openapi.js';

type Schema = z.ZodType;

function json(schema: Schema) {
  return { content: { 'application/json': { schema } } };
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests, so the
 * two cannot drift.
 */
export function buildOpenApiDocument(extra: (registry: OpenAPIRegistry) => void = () => undefined): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  registry.registerComponent('securitySchemes', 'ApiKeyQuery', { type: 'apiKey', in: 'query', name: 'api_key' });
  registry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer' });
  const security: Array<Record<string, string[]>> = [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }, { Bearer: [] }];
  const errors = {
    400: { description: 'INVALID_INPUT', ...json(v2.ErrorResponse) },
    401: { description: 'UNAUTHORIZED or EXPIRED_KEY', ...json(v2.ErrorResponse) },
    403: { description: 'FORBIDDEN', ...json(v2.ErrorResponse) },
    429: { description: 'RATE_LIMIT_EXCEEDED', ...json(v2.ErrorResponse) },
    500: { description: 'INTERNAL_ERROR', ...json(v2.ErrorResponse) },
  };
  const post = (path: string, summary: string, request: Schema, response: Schema) =>
    registry.registerPath({
      method: 'post',
      path,
      summary,
      security,
      request: { body: { ...json(request), required: true } },
      responses: { 200: { description: 'OK', ...json(response) }, ...errors },
    });
  post('/v2/hash', 'SHA-224 of data', v2.HashRequest, v2.HashResponse);
  post('/v2/verify', 'Verify data against a SHA-224 digest (constant-time)', v2.VerifyRequest, v2.VerifyResponse);
  post('/v2/hmac', 'HMAC-SHA-224', v2.HmacRequest, v2.HmacResponse);
  post('/v2/batch', 'Hash up to 1000 items; ?async=true answers 202', v2.BatchRequest, v2.BatchResponse);
  registry.registerPath({
    method: 'post',
    path: '/v2/file',
    summary: 'SHA-224 of an uploaded file (multipart field "file"); ?async=true answers 202',
    security,
    request: {
      query: v2.AsyncQuery,
      body: { content: { 'multipart/form-data': { schema: v2.FileFields.extend({ file: v2.FileFields.shape.output.openapi({ type: 'string', format: 'binary' }) }) } } },
    },
    responses: { 200: { description: 'OK', ...json(v2.FileResponse) }, 202: { description: 'Accepted', ...json(v2.AcceptedResponse) }, 413: { description: 'FILE_TOO_LARGE', ...json(v2.ErrorResponse) }, ...errors },
  });
  registry.registerPath({
    method: 'post',
    path: '/v2/stream',
    summary: 'SHA-224 of a raw application/octet-stream body (chunked); ?async=true answers 202',
    security,
    request: { query: v2.StreamQuery, body: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
    responses: { 200: { description: 'OK', ...json(v2.StreamResponse) }, 202: { description: 'Accepted', ...json(v2.AcceptedResponse) }, 413: { description: 'FILE_TOO_LARGE', ...json(v2.ErrorResponse) }, ...errors },
  });
  registerV1Paths(registry);
  extra(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'sha224d', version: '2.0.0', description: 'SHA-224 hashing service' },
  });
}
