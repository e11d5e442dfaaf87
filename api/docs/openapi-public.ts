/**
 * What the node serves without credentials (docs/decisions.md "Keys and authentication"): the
 * probes, this document, and the client-side library under /sdk/ (api/http/client-library.ts).
 * They answer on the sandbox too (api/app.ts mounts them before the sandbox's /v1-only rule).
 */
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponses, type HeaderRefs } from '../openapi-kit.js';
import { z } from '../schemas/common.js';
import { ErrorResponse } from '../schemas/v2.js';

const Health = z.object({ status: z.literal('ok') }).openapi('Health');
const check = z.enum(['ok', 'failed']);
const Readiness = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.object({ store: check, queue: check, blobs: check }) })
  .openapi('Readiness');
const ManifestFile = z.object({
  url: z.string().openapi({ description: 'The content-addressed URL, cached for a year' }),
  integrity: z.string().openapi({ description: 'Subresource Integrity (sha384-…)' }),
  bytes: z.number().int(),
  gzip: z.number().int(),
  br: z.number().int(),
});
const SdkManifest = z
  .object({
    name: z.string(),
    version: z.string(),
    files: z.record(z.string(), ManifestFile).openapi({ description: 'By served name: `sha224.min.js` and `sha224.mjs`' }),
  })
  .openapi('SdkManifest');

export function registerPublicPaths(registry: OpenAPIRegistry, headers: HeaderRefs): void {
  const base = { 'X-Request-Id': headers.requestId };
  const gen = {
    name: 'v2' as const,
    registry,
    errorSchema: ErrorResponse,
    errorSchemaName: 'ErrorResponse',
    security: [],
    headers,
    limited: false,
  };
  const wrongMethod = errorResponses(gen, ['METHOD_NOT_ALLOWED']);
  const json = (description: string, schema: z.ZodType, extra: Record<string, unknown> = {}): ResponseConfig => ({
    description,
    headers: { ...base, ...extra },
    content: { 'application/json': { schema } },
  });

  registry.registerPath({
    operationId: 'getHealth',
    tags: ['Service'],
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: answers without touching any dependency',
    security: [],
    responses: { 200: json('Alive', Health) },
  });
  registry.registerPath({
    operationId: 'getReadiness',
    tags: ['Service'],
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the store, the queue and the blob store each answered a ping within 2 s',
    security: [],
    responses: {
      200: json('Ready', Readiness),
      503: json('Not ready: `checks` names what failed', Readiness, { 'Retry-After': headers.retryAfter }),
    },
  });
  registry.registerPath({
    operationId: 'getOpenApiDocument',
    tags: ['Service'],
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (public, `Access-Control-Allow-Origin: *`, revalidated by ETag)',
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document; its servers name PUBLIC_URL, else the origin the request reached',
        headers: { ...base, ETag: { description: 'Revalidate with If-None-Match', schema: { type: 'string' } } },
        content: { 'application/json': { schema: z.object({}).passthrough().openapi({ description: 'An OpenAPI 3.1 document' }) } },
      },
      304: { description: 'Not modified (If-None-Match)', headers: base },
      ...wrongMethod,
    },
  });

  const etag = { ETag: { description: 'One per content coding', schema: { type: 'string' as const } } };
  const script = (description: string): Record<number, ResponseConfig> => ({
    200: {
      description: `${description}; brotli or gzip as Accept-Encoding allows (\`Vary: Accept-Encoding\`)`,
      headers: { ...base, ...etag },
      content: { 'text/javascript': { schema: { type: 'string' } } },
    },
    304: { description: 'Not modified (If-None-Match)', headers: base },
    ...wrongMethod,
  });
  const asset = (operationId: string, path: string, summary: string, responses: Record<number, ResponseConfig>) =>
    registry.registerPath({ operationId, tags: ['Client library'], method: 'get', path, summary, security: [], responses });

  asset(
    'getSdkScript',
    '/sdk/sha224.min.js',
    'The client library as a classic script (global `sha224`), cached for an hour',
    script('Minified script'),
  );
  asset('getSdkModule', '/sdk/sha224.mjs', 'The client library as an ES module, cached for an hour', script('Minified ES module'));
  asset('getSdkManifest', '/sdk/manifest.json', 'The content-addressed URLs of the library and their SRI integrity', {
    200: json('The manifest (`Cache-Control: no-cache`)', SdkManifest, etag),
    304: { description: 'Not modified (If-None-Match)', headers: base },
    ...wrongMethod,
  });
  registry.registerPath({
    operationId: 'getSdkAsset',
    tags: ['Client library'],
    method: 'get',
    path: '/sdk/{asset}',
    summary: 'A content-addressed copy of the library, as named by /sdk/manifest.json: immutable, cached for a year',
    security: [],
    request: {
      params: z.object({
        asset: z
          .string()
          .regex(/^sha224\.[0-9a-f]{16}\.(?:min\.js|mjs)$/)
          .openapi({ description: '`sha224.<hash>.min.js` or `sha224.<hash>.mjs`', example: 'sha224.0123456789abcdef.mjs' }),
      }),
    },
    responses: { ...script('The library'), ...errorResponses(gen, ['NOT_FOUND']) },
  });
}
