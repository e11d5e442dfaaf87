import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { generationRegistrar, json } from './openapi-kit.js';
import * as v2 from './schemas/v2.js';
import { registerV1Paths } from './v1/openapi.js';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests, so the
 * two cannot drift.
 */
export function buildOpenApiDocument(extra: (registry: OpenAPIRegistry) => void = () => undefined): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  registry.registerComponent('securitySchemes', 'ApiKeyQuery', { type: 'apiKey', in: 'query', name: 'api_key' });
  registry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer' });
  const { security, error, errors, ok, post, get } = generationRegistrar(registry, {
    security: [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }, { Bearer: [] }],
    errorSchema: v2.ErrorResponse,
  });
  const asyncAnswers = { 202: { description: 'Accepted', ...json(v2.AcceptedResponse) }, 413: error('FILE_TOO_LARGE') };

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
    responses: { ...ok(v2.FileResponse), ...asyncAnswers, ...errors },
  });
  registry.registerPath({
    method: 'post',
    path: '/v2/stream',
    summary: 'SHA-224 of a raw application/octet-stream body (chunked); ?async=true answers 202',
    security,
    request: { query: v2.StreamQuery, body: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
    responses: { ...ok(v2.StreamResponse), ...asyncAnswers, ...errors },
  });
  get('/v2/jobs/{id}', 'State of an async job; when completed, the body the synchronous call would have returned', v2.AcceptedResponse);
  registerV1Paths(registry);
  extra(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'sha224d', version: '2.0.0', description: 'SHA-224 hashing service' },
  });
}
