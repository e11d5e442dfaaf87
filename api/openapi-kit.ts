/**
 * Registration helpers shared by every part of the OpenAPI document: response headers, error
 * answers derived from the one error catalog (shared/errors.ts) in a generation's envelope, and the
 * JSON / upload / GET operation shapes both API generations share. Every status an operation lists
 * is one its route can really answer (docs/decisions.md "Documentation").
 */
import type { OpenAPIRegistry, ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { PERMISSION_CLAIMS, type Permission } from '../shared/auth/principal.js';
import { ERROR_CATALOG, type ErrorCode } from '../shared/errors.js';
import { z } from './schemas/common.js';

export type Schema = z.ZodType;

export function json(schema: Schema) {
  return { content: { 'application/json': { schema } } };
}

type HeaderRef = { $ref: string };

/** Response header components, registered once per document. */
export interface HeaderRefs {
  requestId: HeaderRef;
  limit: HeaderRef;
  remaining: HeaderRef;
  reset: HeaderRef;
  limitRetryAfter: HeaderRef;
  retryAfter: HeaderRef;
  replayed: HeaderRef;
  location: HeaderRef;
  allow: HeaderRef;
  contentRange: HeaderRef;
}

const integerHeader = { schema: { type: 'integer' as const } };

export function registerHeaders(registry: OpenAPIRegistry): HeaderRefs {
  const header = (name: string, component: Record<string, unknown>): HeaderRef =>
    registry.registerComponent('headers', name, component).ref;
  return {
    requestId: header('X-Request-Id', {
      description:
        'The id of this request in the service log: the client-supplied `X-Request-Id` when it is 1-64 of `A-Za-z0-9._:-`, else a new UUID.',
      required: true,
      schema: { type: 'string' },
    }),
    limit: header('X-RateLimit-Limit', {
      description: 'Requests allowed in the binding window (docs/limits.md); -1 when unlimited. On every response to an identified caller.',
      ...integerHeader,
    }),
    remaining: header('X-RateLimit-Remaining', { description: 'Requests left in that window; -1 when unlimited.', ...integerHeader }),
    reset: header('X-RateLimit-Reset', { description: 'When that window resets, in Unix seconds.', ...integerHeader }),
    limitRetryAfter: header('X-RateLimit-Retry-After', {
      description: 'v2: seconds until a refused request may be sent again; 0 while requests are allowed.',
      ...integerHeader,
    }),
    retryAfter: header('Retry-After', {
      description:
        "Seconds to wait before sending the request again (RFC 9110 §10.2.3): on every 429 and 503; the window's reset, or 1 when the end of an outage is not known.",
      required: true,
      ...integerHeader,
    }),
    replayed: header('Idempotent-Replayed', {
      description: '`true` when the `Idempotency-Key` was seen before with the same request: the answer names the first job.',
      schema: { type: 'string', enum: ['true'] },
    }),
    location: header('Location', { description: "The job's status URL, `/v2/jobs/{id}`.", required: true, schema: { type: 'string' } }),
    allow: header('Allow', { description: 'The methods this path accepts.', required: true, schema: { type: 'string' } }),
    contentRange: header('Content-Range', {
      description: 'RFC 9110 §14.4: `bytes <first>-<last>/<length>` on a 206; `bytes */<length>` on a 416.',
      required: true,
      schema: { type: 'string' },
    }),
  };
}

/** When each code is answered, as the document says it. */
const WHEN: { readonly [C in ErrorCode]: string } = {
  INVALID_INPUT: 'a parameter is missing or invalid, the body is malformed, or the path is badly percent-encoded',
  UNAUTHORIZED: 'no credential, or an unknown, revoked or malformed one (no X-RateLimit-* headers)',
  EXPIRED_KEY: 'the credential has expired',
  FORBIDDEN: "the credential lacks this operation's permission or scope, or a client key is used from an Origin it does not allow",
  CREDENTIAL_EXPOSED: 'a credential was sent over plain HTTP to a deployment with TLS: revoke it',
  IP_NOT_ALLOWED: "the request comes from an address outside the key's or its account's IP allow-list",
  NOT_FOUND: 'no such resource for this account',
  METHOD_NOT_ALLOWED: 'answered, with `Allow`, to any other method on this path',
  REQUEST_TIMEOUT: 'the headers or the body did not arrive in time (docs/limits.md "Connections and timeouts")',
  CONFLICT: 'the same Idempotency-Key is being used by a concurrent request; retry',
  FILE_TOO_LARGE: "the file exceeds the plan's size limit",
  PAYLOAD_TOO_LARGE: 'the JSON body exceeds MAX_JSON_BYTES',
  UNSUPPORTED_MEDIA_TYPE: 'a Content-Encoding other than identity, or a content type or charset this operation does not take',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was first used with a different request',
  URL_NOT_ALLOWED: 'the URL is malformed or points at an address the service does not fetch (docs/ssrf.md)',
  URL_FETCH_FAILED: 'fetching the URL failed (an upstream error status, a refused connection or a timeout)',
  RATE_LIMIT_EXCEEDED: 'the rate window or the daily quota is used up; see Retry-After',
  TOO_MANY_CONNECTIONS: 'too many concurrent realtime connections',
  HEADERS_TOO_LARGE: 'the request line and headers are too large',
  INTERNAL_ERROR: 'an unexpected fault (no details are given)',
  SERVICE_UNAVAILABLE:
    'a dependency (database, Redis, object store) cannot be reached right now, or the job queue is full (QUEUE_MAX_WAITING backpressure)',
  JOB_TIMEOUT: 'the job did not finish within SYNC_TIMEOUT; it goes on, and `job_id` names it for GET /v2/jobs/{id}',
  HASH_MISMATCH:
    'the bytes received do not have the expected SHA-224 (X-Expected-SHA224, or tus metadata `sha224`); `expected` and `computed` name both',
  TUS_VERSION_UNSUPPORTED: 'Tus-Resumable is missing or not 1.0.0 (the answer carries Tus-Version)',
  UPLOAD_OFFSET_MISMATCH: 'Upload-Offset is not the offset the upload holds: HEAD it and resume from there',
  UPLOAD_LOCKED: 'another PATCH or DELETE of this upload is under way; retry after it',
  UPLOAD_EXPIRED: 'the upload passed its Upload-Expires and its bytes are deleted',
  CHECKSUM_MISMATCH: "Upload-Checksum does not match the PATCH's bytes; they were discarded and the offset is unchanged",
  RANGE_NOT_SATISFIABLE:
    'the Range starts at or past the end of the identity representation; `Content-Range: bytes */<length>` gives its length',
};

/** Codes every authenticated API operation can answer, whatever its input. */
export const CALLER_ERRORS: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'UNAUTHORIZED',
  'EXPIRED_KEY',
  'FORBIDDEN',
  'CREDENTIAL_EXPOSED',
  'IP_NOT_ALLOWED',
  'METHOD_NOT_ALLOWED',
  'RATE_LIMIT_EXCEEDED',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];
/** Codes of an operation that reads a JSON body. */
export const JSON_BODY_ERRORS: readonly ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** Codes of an operation that reads an uploaded file (multipart or raw). */
export const UPLOAD_ERRORS: readonly ErrorCode[] = ['FILE_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** Codes of an operation that may run its work as a queued job and wait for it. */
export const JOB_ERRORS: readonly ErrorCode[] = ['JOB_TIMEOUT'];
/** Codes of an operation that accepts `?async=true` with an Idempotency-Key. */
export const ASYNC_ERRORS: readonly ErrorCode[] = ['IDEMPOTENCY_KEY_REUSED', 'CONFLICT'];

export interface Generation {
  /** `v1` or `v2`: the tag, the operationId suffix and the error envelope. */
  name: 'v1' | 'v2';
  registry: OpenAPIRegistry;
  errorSchema: Schema;
  /** The component name the error schema is registered under. */
  errorSchemaName: string;
  security: Array<Record<string, string[]>>;
  headers: HeaderRefs;
  /** False where no rate window is counted (the public documents). */
  limited?: boolean;
}

function rateLimitHeaders(gen: Generation): Record<string, HeaderRef> {
  const { headers: h } = gen;
  return {
    'X-RateLimit-Limit': h.limit,
    'X-RateLimit-Remaining': h.remaining,
    'X-RateLimit-Reset': h.reset,
    ...(gen.name === 'v2' ? { 'X-RateLimit-Retry-After': h.limitRetryAfter } : {}),
  };
}

/** Headers of a success answer of `gen`: the request id and the caller's rate window. */
export function successHeaders(gen: Generation): Record<string, HeaderRef> {
  return { 'X-Request-Id': gen.headers.requestId, ...rateLimitHeaders(gen) };
}

/**
 * One response per status for `codes`, in `gen`'s envelope, with the headers that status carries.
 * Each is a component (`V2_FILE_TOO_LARGE`, `V1_UNAUTHORIZED_EXPIRED_KEY`) shared by every
 * operation answering the same codes, which keeps the document and the generated SDK types small.
 */
export function errorResponses(gen: Generation, codes: readonly ErrorCode[]): Record<number, { $ref: string }> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const registered = registeredNames(gen.registry);
  if (!registered.has(gen.errorSchemaName)) {
    gen.registry.register(gen.errorSchemaName, gen.errorSchema);
    registered.add(gen.errorSchemaName);
  }
  const responses: Record<number, { $ref: string }> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const name = [gen.name.toUpperCase(), ...group, ...(gen.limited === false ? ['PUBLIC'] : [])].join('_');
    if (!registered.has(name)) {
      const headers: Record<string, HeaderRef> = { 'X-Request-Id': gen.headers.requestId };
      // 401 and parser refusals come before the caller is identified: no window to describe.
      if (gen.limited !== false && status !== 401 && status !== 431) Object.assign(headers, rateLimitHeaders(gen));
      // Every 429 and 503 says when to come back (ServiceError.retryAfterHeader).
      if (status === 429 || status === 503) headers['Retry-After'] = gen.headers.retryAfter;
      if (status === 405) headers.Allow = gen.headers.allow;
      if (status === 416) headers['Content-Range'] = gen.headers.contentRange;
      gen.registry.registerComponent('responses', name, {
        description: group.map((code) => `\`${code}\`: ${WHEN[code]}.`).join(' '),
        headers,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${gen.errorSchemaName}` } } },
      });
      registered.add(name);
    }
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
  return responses;
}

const REGISTERED = new WeakMap<OpenAPIRegistry, Set<string>>();

function registeredNames(registry: OpenAPIRegistry): Set<string> {
  let names = REGISTERED.get(registry);
  if (names === undefined) REGISTERED.set(registry, (names = new Set()));
  return names;
}

export interface OperationSpec {
  operationId: string;
  path: string;
  summary: string;
  /** Its tag: the generation's name, or its table's (api/http/route-table.ts). */
  tag: string;
  /** Who may call it (for a generation: its security with the operation's OAuth scope, securityFor). */
  security: Array<Record<string, string[]>>;
  /** Error codes beyond CALLER_ERRORS. */
  errors?: readonly ErrorCode[];
  description?: string;
}

/** `security` with the operation's OAuth scope filled in. */
export function securityFor(gen: Generation, scope: string): Array<Record<string, string[]>> {
  return gen.security.map((requirement) =>
    Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, name === 'OAuth2' ? [scope] : scopes])),
  );
}

/** The 200 of an operation of `gen` whose body is `response`. */
export function okResponse(gen: Generation, response: Schema): Record<number, ResponseConfig> {
  return { 200: { description: 'OK', headers: successHeaders(gen), ...json(response) } };
}

/** Registers operations of one API generation. */
export function generationRegistrar(gen: Generation) {
  const { registry } = gen;
  const ok = (response: Schema): Record<number, ResponseConfig> => okResponse(gen, response);
  const base = (spec: OperationSpec): Omit<RouteConfig, 'method' | 'responses'> => ({
    operationId: spec.operationId,
    tags: [spec.tag],
    path: spec.path,
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    security: spec.security,
  });
  return {
    ok,
    errors: (codes: readonly ErrorCode[]) => errorResponses(gen, [...CALLER_ERRORS, ...codes]),
    base,
    /** A POST with a required JSON body. */
    post: (spec: OperationSpec, request: Schema, response: Schema | Record<number, ResponseConfig>): void => {
      registry.registerPath({
        ...base(spec),
        method: 'post',
        request: { body: { ...json(request), required: true } },
        responses: {
          ...(isSchema(response) ? ok(response) : response),
          ...errorResponses(gen, [...CALLER_ERRORS, ...JSON_BODY_ERRORS, ...(spec.errors ?? [])]),
        },
      });
    },
    /** A POST of a multipart/form-data upload whose `file` part is required. */
    upload: (spec: OperationSpec, fields: z.ZodObject, response: Schema, fileDescription: string): void => {
      registry.registerPath({
        ...base(spec),
        method: 'post',
        request: { body: multipartBody(fields, fileDescription) },
        responses: { ...ok(response), ...errorResponses(gen, [...CALLER_ERRORS, ...UPLOAD_ERRORS, ...(spec.errors ?? [])]) },
      });
    },
    /** A GET without a body. */
    get: (spec: OperationSpec, response: Schema): void => {
      registry.registerPath({
        ...base(spec),
        method: 'get',
        responses: { ...ok(response), ...errorResponses(gen, [...CALLER_ERRORS, ...(spec.errors ?? [])]) },
      });
    },
  };
}

function isSchema(value: Schema | Record<number, ResponseConfig>): value is Schema {
  return typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** A multipart body: the text fields of `fields` and the required binary part `file`. */
export function multipartBody(fields: z.ZodObject, fileDescription: string) {
  const file = z.string().openapi({ type: 'string', format: 'binary', description: fileDescription });
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: fields.extend({ file }),
        encoding: { file: { contentType: 'application/octet-stream' } },
      },
    },
  };
}

/**
 * A route's OpenAPI operation as its route table declares it (api/http/route-table.ts): the path,
 * method and security come from the route and its table. A JSON POST names its `request`; an
 * upload its form `upload` fields; a GET only its `response`; anything else builds its request and
 * responses (`custom`, given the table's generation for its headers and error envelope).
 */
export type RouteDoc = Omit<OperationSpec, 'path' | 'tag' | 'security'> &
  (
    | { request: Schema; response: Schema | Record<number, ResponseConfig> }
    | { upload: z.ZodObject; file: string; response: Schema }
    | { response: Schema }
    | { custom: (gen: Generation) => Pick<RouteConfig, 'request' | 'responses'> }
  );

/** `/jobs/:id` under `/v2` → `/v2/jobs/{id}` (OpenAPI path templating). */
export function openApiPath(prefix: string, path: string): string {
  // `:name` a segment, `*name` the rest of the path (Express 5): both one parameter in the document.
  return prefix + path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/** What a route table's operations share in the document: its tag, envelope and who may call each route. */
export interface TableDocs<P> {
  /** The headers and the error envelope its operations answer with. */
  gen: Generation;
  tag: string;
  /** The security requirement of a route's `permission`. */
  security: (permission: P) => Array<Record<string, string[]>>;
}

/** What the document reads of a route (api/http/route-table.ts Route). */
export interface DocumentedRoute<P> {
  method: 'get' | 'post' | 'head' | 'put' | 'patch' | 'delete';
  path: string;
  permission: P;
  doc: RouteDoc;
}

/** Register the operations of a route table, in its order, under `prefix`. */
export function documentTable<P>(docs: TableDocs<P>, prefix: string, routes: ReadonlyArray<DocumentedRoute<P>>): void {
  const { gen } = docs;
  const registrar = generationRegistrar(gen);
  for (const { method, path, permission, doc } of routes) {
    const spec: OperationSpec = {
      operationId: doc.operationId,
      path: openApiPath(prefix, path),
      summary: doc.summary,
      tag: docs.tag,
      security: docs.security(permission),
      ...(doc.errors === undefined ? {} : { errors: doc.errors }),
      ...(doc.description === undefined ? {} : { description: doc.description }),
    };
    if ('custom' in doc) gen.registry.registerPath({ ...registrar.base(spec), method, ...doc.custom(gen) });
    else if ('upload' in doc) registrar.upload(spec, doc.upload, doc.response, doc.file);
    else if ('request' in doc) registrar.post(spec, doc.request, doc.response);
    else registrar.get(spec, doc.response);
  }
}

/** Register the operations of an API generation's route table under `prefix`: its tag and the key permission's OAuth scope. */
export function documentRoutes(gen: Generation, prefix: string, routes: ReadonlyArray<DocumentedRoute<Permission>>): void {
  documentTable({ gen, tag: gen.name, security: (permission) => securityFor(gen, PERMISSION_CLAIMS[permission]) }, prefix, routes);
}
