/**
 * The OpenAPI operations of the service routes (api/service-routes.ts declares them): the probes,
 * the metrics, the public documents and the client-side library under /sdk/
 * (api/http/client-library.ts). All but /metrics need no credentials (docs/decisions.md "Keys and
 * authentication"); they answer on the sandbox too (api/app.ts mounts them before the sandbox's
 * /v1-only rule). Their errors are in the v2 envelope, with no rate window.
 */
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errorResponses, type Generation, type RouteDoc } from '../openapi-kit.js';
import { z } from '../schemas/common.js';

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

type Responses = Record<number, ResponseConfig | { $ref: string }>;

const requestIdHeader = (gen: Generation) => ({ 'X-Request-Id': gen.headers.requestId });
const jsonAnswer = (gen: Generation, description: string, schema: z.ZodType, extra: Record<string, unknown> = {}): ResponseConfig => ({
  description,
  headers: { ...requestIdHeader(gen), ...extra },
  content: { 'application/json': { schema } },
});
const notModified = (gen: Generation): ResponseConfig => ({ description: 'Not modified (If-None-Match)', headers: requestIdHeader(gen) });
const wrongMethod = (gen: Generation): Responses => errorResponses(gen, ['METHOD_NOT_ALLOWED']);
const etag = (description: string) => ({ ETag: { description, schema: { type: 'string' as const } } });

/** A public JSON document served by api/docs/public-document.ts. */
function publicDocument(gen: Generation, description: string, kind: string): Responses {
  return {
    200: {
      description,
      headers: { ...requestIdHeader(gen), ...etag('Revalidate with If-None-Match') },
      content: { 'application/json': { schema: z.object({}).passthrough().openapi({ description: kind }) } },
    },
    304: notModified(gen),
    ...wrongMethod(gen),
  };
}

/** A script of the client library, served by api/http/client-library.ts. */
function script(gen: Generation, description: string): Responses {
  return {
    200: {
      description: `${description}; brotli or gzip as Accept-Encoding allows (\`Vary: Accept-Encoding\`)`,
      headers: { ...requestIdHeader(gen), ...etag('One per content coding') },
      content: { 'text/javascript': { schema: { type: 'string' } } },
    },
    304: notModified(gen),
    ...wrongMethod(gen),
  };
}

export const SERVICE_DOCS = {
  health: {
    operationId: 'getHealth',
    summary: 'Liveness: answers without touching any dependency',
    custom: (gen) => ({ responses: { 200: jsonAnswer(gen, 'Alive', Health) } }),
  },
  readiness: {
    operationId: 'getReadiness',
    summary: 'Readiness: the store, the queue and the blob store each answered a ping within 2 s',
    custom: (gen) => ({
      responses: {
        200: jsonAnswer(gen, 'Ready', Readiness),
        503: jsonAnswer(gen, 'Not ready: `checks` names what failed', Readiness, { 'Retry-After': gen.headers.retryAfter }),
      },
    }),
  },
  metrics: {
    operationId: 'getMetrics',
    summary: 'Prometheus metrics (docs/operating.md): only when METRICS_TOKEN is set, to `Authorization: Bearer <METRICS_TOKEN>`',
    custom: (gen) => ({
      responses: {
        200: {
          description: 'The Prometheus text exposition (`Cache-Control: no-store`)',
          headers: requestIdHeader(gen),
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        ...errorResponses(gen, ['UNAUTHORIZED', 'NOT_FOUND']),
      },
    }),
  },
  openapi: {
    operationId: 'getOpenApiDocument',
    summary: 'This document (public, `Access-Control-Allow-Origin: *`, revalidated by ETag)',
    custom: (gen) => ({
      responses: publicDocument(
        gen,
        'The OpenAPI 3.1 document; its servers name PUBLIC_URL, else the origin the request reached',
        'An OpenAPI 3.1 document',
      ),
    }),
  },
  asyncapi: {
    operationId: 'getAsyncApiDocument',
    summary: 'The AsyncAPI 3 document of the realtime API (public, `Access-Control-Allow-Origin: *`, revalidated by ETag)',
    custom: (gen) => ({
      responses: publicDocument(gen, 'The AsyncAPI document; its servers name the realtime origin', 'An AsyncAPI 3 document'),
    }),
  },
  sdkScript: {
    operationId: 'getSdkScript',
    summary: 'The client library as a classic script (global `sha224`), cached for an hour',
    custom: (gen) => ({ responses: script(gen, 'Minified script') }),
  },
  sdkModule: {
    operationId: 'getSdkModule',
    summary: 'The client library as an ES module, cached for an hour',
    custom: (gen) => ({ responses: script(gen, 'Minified ES module') }),
  },
  sdkManifest: {
    operationId: 'getSdkManifest',
    summary: 'The content-addressed URLs of the library and their SRI integrity',
    custom: (gen) => ({
      responses: {
        200: jsonAnswer(gen, 'The manifest (`Cache-Control: no-cache`)', SdkManifest, etag('One per content coding')),
        304: notModified(gen),
        ...wrongMethod(gen),
      },
    }),
  },
  sdkAsset: {
    operationId: 'getSdkAsset',
    summary: 'A content-addressed copy of the library, as named by /sdk/manifest.json: immutable, cached for a year',
    custom: (gen) => ({
      request: {
        params: z.object({
          asset: z
            .string()
            .regex(/^sha224\.[0-9a-f]{16}\.(?:min\.js|mjs)$/)
            .openapi({ description: '`sha224.<hash>.min.js` or `sha224.<hash>.mjs`', example: 'sha224.0123456789abcdef.mjs' }),
        }),
      },
      responses: { ...script(gen, 'The library'), ...errorResponses(gen, ['NOT_FOUND']) },
    }),
  },
} as const satisfies Record<string, RouteDoc>;
