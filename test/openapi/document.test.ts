/**
 * The served /openapi.json is exact enough for standard tools to take as is: Redocly's linter
 * (recommended rules) finds no error, @readme/openapi-parser validates it, and it states what the
 * routes do — operationIds, tags, the job states, every status of the error catalog an operation can
 * answer, its headers, servers from configuration and the OAuth 2.0 flow.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_SCOPES } from '../../api/oauth/server/model.js';
import { ERROR_CATALOG } from '../../shared/errors.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

type Doc = any;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

function operations(doc: Doc): Array<{ path: string; method: string; op: any }> {
  return Object.entries(doc.paths as Record<string, any>).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((method) => ({ path: p, method, op: item[method] })),
  );
}

/** A response, following a `$ref` into components.responses. */
function resolve(doc: Doc, response: any): any {
  return response?.$ref === undefined ? response : doc.components.responses[String(response.$ref).split('/').pop()!];
}

async function served(s: TestServer, headers: Record<string, string> = {}): Promise<{ res: Response; doc: Doc }> {
  const res = await fetch(`${s.url}/openapi.json`, { headers });
  return { res, doc: await res.json() };
}

describe('GET /openapi.json', () => {
  let s: TestServer;
  let doc: Doc;
  beforeAll(async () => {
    s = await startTestServer();
    const answer = await served(s);
    expect(answer.res.status).toBe(200);
    doc = answer.doc;
  });
  afterAll(() => s?.close());

  it('is public: any origin may read it, also through a CORS preflight', async () => {
    const { res } = await served(s, { origin: 'https://tools.example.net' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const preflight = await fetch(`${s.url}/openapi.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://tools.example.net', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
  });

  it('passes `redocly lint` (recommended rules) with no error', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      fs.writeFileSync(file, JSON.stringify(doc));
      const bin = path.join(ROOT, 'node_modules', '.bin', 'redocly');
      // Exit status 1 means problems; the JSON report says which.
      const { stdout } = await run(bin, ['lint', file, '--format=json'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' },
      }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; severity: string }>;
      };
      expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(report.totals.errors).toBe(0);
      // The only warnings: /oauth/authorize answers 302 (no 2XX); the probes and the transparency
      // log's checkpoint, key and certificate have no 4XX.
      expect([...new Set(report.problems.map((p) => p.ruleId))].sort()).toEqual(['operation-2xx-response', 'operation-4xx-response']);
      expect(report.totals.warnings).toBe(7);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('validates with @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });

  it('gives every operation a unique operationId and one tag per generation or area', () => {
    const ops = operations(doc);
    const ids = ops.map((o) => o.op.operationId as string);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const byId = Object.fromEntries(ops.map((o) => [o.op.operationId, `${o.method.toUpperCase()} ${o.path}`]));
    expect(byId).toMatchObject({
      hashV2: 'POST /v2/hash',
      verifyV2: 'POST /v2/verify',
      hmacV2: 'POST /v2/hmac',
      batchV2: 'POST /v2/batch',
      fileV2: 'POST /v2/file',
      streamV2: 'POST /v2/stream',
      getJobV2: 'GET /v2/jobs/{id}',
      hashV1: 'POST /v1/hash',
      verifyFileV1: 'POST /v1/verify/file',
      fileHashV1: 'POST /v1/file/hash',
      getUsageV1: 'GET /v1/usage',
      getStatusV1: 'GET /v1/status',
      tokenOAuth: 'POST /oauth/token',
      getAuthorizationServerMetadata: 'GET /.well-known/oauth-authorization-server',
      getOpenIdConfiguration: 'GET /.well-known/openid-configuration',
      getHealth: 'GET /healthz',
      getReadiness: 'GET /readyz',
      getSdkManifest: 'GET /sdk/manifest.json',
    });
    for (const { path: p, op } of ops) {
      const expected = p.startsWith('/v2/') ? 'v2' : p.startsWith('/v1/') ? 'v1' : undefined;
      if (expected) expect(op.tags, p).toEqual([expected]);
      expect(op.tags.every((t: string) => doc.tags.some((d: { name: string }) => d.name === t))).toBe(true);
    }
  });

  it('documents GET /v2/jobs/{id}: its path parameter and every job state', () => {
    const op = doc.paths['/v2/jobs/{id}'].get;
    expect(op.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(op.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/JobStatus');
    const members = (doc.components.schemas.JobStatus.anyOf as Array<{ $ref: string }>).map((m) => m.$ref.split('/').pop());
    expect(members).toEqual([
      'JobPending',
      'BatchJobCompleted',
      'FileJobCompleted',
      'StreamJobCompleted',
      'DigestJobCompleted',
      'JobFailed',
    ]);
    expect(doc.components.schemas.JobPending.properties.status.enum).toEqual(['queued', 'active']);
    expect(resolve(doc, op.responses['404']).description).toContain('NOT_FOUND');
  });

  it('lists each status of the error catalog an operation can answer, in its generation envelope', () => {
    const statusesOf = (p: string, m = 'post') => Object.keys(doc.paths[p][m].responses).sort();
    expect(statusesOf('/v2/hash')).toEqual(['200', '400', '401', '403', '405', '408', '413', '415', '429', '431', '500', '503', '504']);
    expect(statusesOf('/v2/batch')).toEqual([
      '200',
      '202',
      '400',
      '401',
      '403',
      '405',
      '408',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '500',
      '503',
      '504',
    ]);
    expect(statusesOf('/v2/jobs/{id}', 'get')).toEqual(['200', '400', '401', '403', '404', '405', '408', '429', '431', '500', '503']);
    expect(statusesOf('/v1/hash/url')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '405',
      '408',
      '413',
      '415',
      '429',
      '431',
      '500',
      '502',
      '503',
      '504',
    ]);
    for (const { path: p, op } of operations(doc).filter((o) => /^\/v[12]\//.test(o.path))) {
      const envelope = p.startsWith('/v1/') ? 'V1ErrorResponse' : 'ErrorResponse';
      for (const [status, response] of Object.entries(op.responses as Record<string, unknown>)) {
        if (Number(status) < 400) continue;
        const r = resolve(doc, response);
        expect(r.content['application/json'].schema.$ref, `${p} ${status}`).toBe(`#/components/schemas/${envelope}`);
        // Every code named in the description is one of the catalog's with that status.
        const codes = [...String(r.description).matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]! as keyof typeof ERROR_CATALOG);
        expect(codes.length, `${p} ${status}`).toBeGreaterThan(0);
        for (const code of codes) expect(ERROR_CATALOG[code]?.status, `${p} ${status} ${code}`).toBe(Number(status));
      }
    }
    expect(resolve(doc, doc.paths['/v2/file'].post.responses['413']).description).toContain('FILE_TOO_LARGE');
    expect(resolve(doc, doc.paths['/v2/hash'].post.responses['413']).description).toContain('PAYLOAD_TOO_LARGE');
  });

  it('names the response headers and the Idempotency-Key request header', () => {
    const ok = doc.paths['/v2/hash'].post.responses['200'].headers;
    expect(Object.keys(ok).sort()).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-RateLimit-Retry-After',
      'X-Request-Id',
    ]);
    expect(Object.keys(doc.paths['/v1/hash'].post.responses['200'].headers).sort()).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Request-Id',
    ]);
    expect(Object.keys(resolve(doc, doc.paths['/v2/hash'].post.responses['429']).headers)).toContain('Retry-After');
    expect(Object.keys(resolve(doc, doc.paths['/v2/hash'].post.responses['401']).headers)).toEqual(['X-Request-Id']);
    expect(Object.keys(resolve(doc, doc.paths['/v2/hash'].post.responses['405']).headers)).toContain('Allow');
    for (const p of ['/v2/batch', '/v2/file', '/v2/stream']) {
      const op = doc.paths[p].post;
      expect(Object.keys(op.responses['202'].headers)).toEqual(expect.arrayContaining(['Location', 'Idempotent-Replayed', 'X-Request-Id']));
      expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    }
    expect(doc.paths['/v2/hash'].post.parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
  });

  it('documents Retry-After on every 429 and 503 answer, as the standard header component', () => {
    const answers = operations(doc).flatMap(({ path: p, method, op }) =>
      ['429', '503']
        .filter((status) => op.responses[status] !== undefined)
        .map((status) => ({ at: `${method.toUpperCase()} ${p} ${status}`, headers: resolve(doc, op.responses[status]).headers ?? {} })),
    );
    // v1, v2, the readiness probe and the dashboard's sign-in throttling.
    expect(answers.map((a) => a.at)).toEqual(expect.arrayContaining(['POST /v2/hash 503', 'GET /v1/usage 429', 'GET /readyz 503']));
    expect(answers.filter((a) => a.at.includes('/dashboard/api/')).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.headers['Retry-After']?.$ref !== '#/components/headers/Retry-After').map((a) => a.at)).toEqual([]);
    expect(doc.components.headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
  });

  it('types every timestamp an answer carries as a date-time', () => {
    const untyped: string[] = [];
    const visit = (node: any, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, any>)) {
        const timestamp = /(^timestamp$|At$|_at$|Time$|^since$|^reset$)/.test(name) && property?.type !== 'integer';
        const format = property?.format ?? property?.anyOf?.find((s: any) => s.type === 'string')?.format;
        if (timestamp && format !== 'date-time') untyped.push(`${where}.${name}`);
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`);
    };
    visit(doc.components.schemas, 'schemas');
    expect(untyped).toEqual([]);
    expect(doc.components.schemas.HashResponse.properties.timestamp.format).toBe('date-time');
    expect(doc.components.schemas.V1UsageResponse.properties.account.properties.quota.properties.resetTime.format).toBe('date-time');
  });

  it('states request defaults in words: `required` lists what a caller must send, and no request property is marked present by a `default`', () => {
    const hash = doc.components.schemas.HashRequest;
    expect(hash.required).toEqual(['data']);
    expect(hash.properties.encoding).toEqual({
      type: 'string',
      enum: ['utf8', 'hex', 'base64'],
      description: 'Encoding of the input string. Defaults to "utf8" when omitted.',
    });
    const withDefault = Object.entries(doc.components.schemas as Record<string, any>)
      .filter(([name]) => /Request$/.test(name))
      .flatMap(([name, schema]) =>
        Object.entries((schema.properties ?? {}) as Record<string, any>)
          .filter(([, property]) => 'default' in property)
          .map(([field]) => `${name}.${field}`),
      );
    expect(withDefault).toEqual([]);
  });

  it("requires /v2/file's file part and describes it", () => {
    const body = doc.paths['/v2/file'].post.requestBody;
    expect(body.required).toBe(true);
    const schema = body.content['multipart/form-data'].schema;
    expect(schema.required).toEqual(['file']);
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(schema.properties.file.description).toMatch(/file to hash/);
  });

  it("names the request's origin as its server, and the OAuth 2.0 flow's URLs under it", () => {
    expect(doc.servers).toEqual([{ url: s.url, description: 'API' }]);
    const oauth = doc.components.securitySchemes.OAuth2;
    expect(oauth.type).toBe('oauth2');
    expect(oauth.flows.authorizationCode).toMatchObject({
      authorizationUrl: `${s.url}/oauth/authorize`,
      tokenUrl: `${s.url}/oauth/token`,
      refreshUrl: `${s.url}/oauth/token`,
    });
    expect(Object.keys(oauth.flows.authorizationCode.scopes)).toEqual([...OAUTH_SCOPES]);
    expect(doc.components.securitySchemes.ApiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.BearerJwt).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    // Each operation asks OAuth for its permission's scope.
    expect(doc.paths['/v2/hash'].post.security).toContainEqual({ OAuth2: ['hash:create'] });
    expect(doc.paths['/v2/jobs/{id}'].get.security).toContainEqual({ OAuth2: ['jobs:read'] });
    expect(doc.paths['/v1/usage'].get.security).toContainEqual({ OAuth2: ['usage:read'] });
    expect(doc.paths['/v1/hash'].post.security).not.toContainEqual({ ApiKeyHeader: [] });
    expect(doc.paths['/healthz'].get.security).toEqual([]);
  });

  it('documents the OAuth endpoints, the metadata, the probes and /sdk/*', () => {
    for (const p of [
      '/oauth/authorize',
      '/oauth/token',
      '/oauth/revoke',
      '/oauth/introspect',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/healthz',
      '/readyz',
      '/sdk/sha224.min.js',
      '/sdk/sha224.mjs',
      '/sdk/manifest.json',
      '/sdk/{asset}',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(Object.keys(doc.paths['/oauth/authorize'])).toEqual(['get', 'post']);
    expect(doc.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
  });

  it('revalidates by ETag', async () => {
    const { res } = await served(s);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect((await fetch(`${s.url}/openapi.json`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('servers from configuration', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      env: { PUBLIC_URL: 'https://hash.example.com', SANDBOX_HOST: 'sandbox.example.com', SANDBOX_PORT: '8081' },
    });
  });
  afterAll(() => s?.close());

  it('names PUBLIC_URL whatever the Host, then the sandbox by host and by port', async () => {
    const { res, doc } = await served(s, { 'x-forwarded-host': 'evil.example' });
    expect(res.headers.get('vary')).toBeNull();
    expect(doc.servers.map((x: { url: string }) => x.url)).toEqual([
      'https://hash.example.com',
      'https://sandbox.example.com',
      'https://hash.example.com:8081',
    ]);
    expect(doc.components.securitySchemes.OAuth2.flows.authorizationCode.tokenUrl).toBe('https://hash.example.com/oauth/token');
  });

  it('names the main server alone on operations the sandbox does not serve (/v2, OAuth)', async () => {
    const { doc } = await served(s);
    for (const { path: p, op } of operations(doc)) {
      const onSandbox = /^\/(v1\/|healthz$|readyz$|openapi\.json$|sdk\/)/.test(p);
      if (onSandbox) expect(op.servers, p).toBeUndefined();
      else expect(op.servers, p).toEqual([{ url: 'https://hash.example.com', description: 'API' }]);
    }
  });
});

describe('without PUBLIC_URL', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  /** GET /openapi.json with a Host of our choosing (fetch sets its own). */
  function withHost(host: string): Promise<{ vary: string | undefined; doc: Doc }> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${s.url}/openapi.json`, { headers: { host } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ vary: res.headers.vary, doc: JSON.parse(text) }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  }

  it('names the origin reached, varies with it, and never echoes a malformed Host', async () => {
    const port = new URL(s.url).port;
    const viaName = await withHost(`LocalHost:${port}`);
    expect(viaName.vary).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
    expect(viaName.doc.servers).toEqual([{ url: `http://localhost:${port}`, description: 'API' }]);
    expect(viaName.doc.components.securitySchemes.OAuth2.flows.authorizationCode.authorizationUrl).toBe(
      `http://localhost:${port}/oauth/authorize`,
    );
    // Not a plain host[:port]: the node's own listener (HOST:PORT) is named instead.
    const malformed = await withHost('evil.example/path');
    expect(malformed.doc.servers).toEqual([{ url: `http://127.0.0.1:${s.config.PORT}`, description: 'API' }]);
  });
});
