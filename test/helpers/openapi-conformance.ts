/**
 * Every /v1 and /v2 response a test server sends is held against the OpenAPI document
 * (api/openapi.ts): its status must be documented for the operation, and a JSON body must validate
 * (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses) against that status's schema. The test servers
 * (test/helpers/api-server.ts) wrap their handler with `auditResponses`, so the whole suite checks
 * the document, and `close()` fails a test file whose server answered off the document.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument } from '../../api/openapi.js';

/** Responses larger than this are not buffered for checking (no documented JSON body is near it). */
const MAX_CHECKED_BYTES = 1 << 20;
const CHECKED_PREFIXES = ['/v1/', '/v2/'];

interface Operation {
  pattern: RegExp;
  path: string;
  method: string;
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}

interface Conformance {
  operations: Operation[];
  validator: (at: string) => ValidateFunction | undefined;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

let loaded: Conformance | undefined;

function conformance(): Conformance {
  if (loaded) return loaded;
  const doc = buildOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, { responses: Operation['responses'] }>>;
    components: { responses: Conformance['responses'] };
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'openapi');
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!CHECKED_PREFIXES.some((prefix) => path.startsWith(prefix))) continue;
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i');
    for (const [method, operation] of Object.entries(methods)) operations.push({ pattern, path, method, responses: operation.responses });
  }
  loaded = { operations, validator: (at) => ajv.getSchema(at), responses: doc.components.responses };
  return loaded;
}

const pointer = (part: string): string => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** Why this response is not what the document says, or undefined if it is (or is not the document's to say). */
export function offDocument(
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: string,
): string | undefined {
  const path = url.split('?')[0] ?? '';
  if (!CHECKED_PREFIXES.some((prefix) => path.startsWith(prefix))) return undefined;
  const { operations, validator, responses } = conformance();
  const operation = operations.find((op) => op.method === method.toLowerCase() && op.pattern.test(path));
  // Unknown paths and methods (404, 405) are answered by the generation, not by an operation.
  if (operation === undefined) return undefined;
  // Redirects to HTTPS are the edge's (api/middleware/https-only.ts, README "HTTPS"), before any route.
  if (status >= 300 && status < 400) return undefined;
  const label = `${method} ${path} ${status}`;
  const documented = operation.responses[String(status)];
  if (documented === undefined) return `${label}: status not documented for ${operation.method} ${operation.path} — ${body.slice(0, 200)}`;
  const name = documented.$ref?.split('/').pop();
  const response = name === undefined ? documented : responses[name];
  if (response?.content === undefined) return body === '' ? undefined : `${label}: body sent where none is documented`;
  // A documented body of another media type (the NDJSON of bulk results) is not the JSON validator's to check.
  const media = contentType?.split(';')[0]?.trim();
  if (media !== undefined && media !== 'application/json' && response.content[media] !== undefined) return undefined;
  if (!contentType?.startsWith('application/json')) return `${label}: content-type ${contentType ?? '(none)'} where JSON is documented`;
  const at =
    name === undefined
      ? `openapi#/paths/${pointer(operation.path)}/${operation.method}/responses/${status}/content/application~1json/schema`
      : `openapi#/components/responses/${pointer(name)}/content/application~1json/schema`;
  const validate = validator(at);
  if (validate === undefined) return `${label}: no schema at ${at}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${label}: body is not JSON — ${body.slice(0, 200)}`;
  }
  return validate(parsed) ? undefined : `${label}: ${JSON.stringify(validate.errors)} — ${body.slice(0, 300)}`;
}

/**
 * `handler`, with each /v1 and /v2 response checked as it finishes; what was off the document
 * lands in `problems`. Requests to the sandbox host are left out: the sandbox serves /v1 only, and
 * the document lists it as /v1's second server (api/docs/openapi-servers.ts).
 */
export function auditResponses(
  handler: RequestListener,
  problems: string[],
  options: { sandboxHost?: string | undefined } = {},
): RequestListener {
  const sandboxHost = options.sandboxHost?.toLowerCase();
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const checked = req.method !== 'HEAD' && req.method !== 'OPTIONS' && CHECKED_PREFIXES.some((prefix) => url.startsWith(prefix));
    const sandbox = sandboxHost !== undefined && req.headers.host?.split(':')[0]?.toLowerCase() === sandboxHost;
    if (checked && !sandbox) record(req, res, problems);
    handler(req, res);
  };
}

function record(req: IncomingMessage, res: ServerResponse, problems: string[]): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown, encoding?: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_CHECKED_BYTES) return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    chunks.push(buf);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as ServerResponse['end'];
  res.on('finish', () => {
    if (size > MAX_CHECKED_BYTES || res.getHeader('content-encoding') !== undefined) return;
    const contentType = res.getHeader('content-type');
    const problem = offDocument(
      req.method ?? 'GET',
      req.url ?? '',
      res.statusCode,
      typeof contentType === 'string' ? contentType : undefined,
      Buffer.concat(chunks).toString('utf8'),
    );
    if (problem !== undefined) problems.push(problem);
  });
}
