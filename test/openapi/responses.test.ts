/**
 * What the service really answers matches what /openapi.json says: every response of the /v2 and
 * /v1 happy and error paths below has a documented status, a body that validates (ajv, JSON
 * Schema 2020-12 as OpenAPI 3.1 uses) against that status's schema, the headers the document
 * requires, and no rate-limit, Retry-After, Location, Allow or Idempotent-Replayed header the
 * document does not list for that status. GET /v2/jobs/{id}'s every state is checked too.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobStatusBody } from '../../api/v2/render.js';
import type { JobRecord } from '../../shared/queue/types.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC, sha224Hex } from '../helpers/digests.js';
import { fileForm } from '../helpers/multipart.js';
import { listenOnFreePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/wait.js';

type Doc = any;

/** Headers whose presence the document must announce for the status that carried them. */
const ANNOUNCED = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-retry-after',
  'retry-after',
  'location',
  'allow',
  'idempotent-replayed',
];

let s: TestServer;
let doc: Doc;
let ajv: InstanceType<typeof Ajv2020>;
const seen = new Set<string>();

const pointer = (...parts: string[]): string => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The documented response for `status`, its JSON pointer (for its schema) and its object. */
function documented(path: string, method: string, status: number): { at: string; response: any } {
  const responses = doc.paths[path]?.[method]?.responses;
  expect(responses, `${method} ${path} is documented`).toBeDefined();
  const response = responses[String(status)];
  expect(response, `${method} ${path} documents ${status}`).toBeDefined();
  if (response.$ref !== undefined) {
    const name = String(response.$ref).split('/').pop()!;
    return { at: `#/components/responses/${pointer(name)}`, response: doc.components.responses[name] };
  }
  return { at: `#/paths/${pointer(path)}/${method}/responses/${status}`, response };
}

function headerObject(h: any): any {
  return h.$ref === undefined ? h : doc.components.headers[String(h.$ref).split('/').pop()!];
}

/** Checks a real response against the document and returns its JSON body. */
async function conforms(res: Response, path: string, method: 'get' | 'post' | 'head' | 'patch' | 'delete'): Promise<any> {
  const { at, response } = documented(path, method, res.status);
  seen.add(`${method} ${path} ${res.status}`);
  const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), headerObject(h)]));
  for (const [name, h] of Object.entries(headers)) {
    if ((h as { required?: boolean }).required === true) expect(res.headers.get(name), `${path} ${res.status} ${name}`).not.toBeNull();
  }
  for (const name of ANNOUNCED) {
    if (res.headers.get(name) !== null) expect(headers[name], `${path} ${res.status} sends ${name}`).toBeDefined();
  }
  const text = await res.text();
  if (response.content === undefined) {
    expect(text).toBe('');
    return undefined;
  }
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (mediaType !== 'application/json') {
    // A documented non-JSON answer (the bulk results' NDJSON): its media type is the documented one.
    expect(Object.keys(response.content), `${method.toUpperCase()} ${path} ${res.status}`).toContain(mediaType);
    return text;
  }
  const body = JSON.parse(text);
  const validate = ajv.getSchema(`openapi${at}/content/application~1json/schema`);
  expect(validate, at).toBeDefined();
  const valid = validate!(body);
  expect(valid ? [] : validate!.errors, `${method.toUpperCase()} ${path} ${res.status}: ${text.slice(0, 300)}`).toEqual([]);
  return body;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}, query = ''): Promise<Response> =>
  fetch(`${s.url}${path}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeAll(async () => {
  s = await startTestServer({ env: { MAX_JSON_BYTES: '4096', URL_FETCH_ALLOW_LOOPBACK: 'true' } });
  doc = await (await fetch(`${s.url}/openapi.json`)).json();
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `format: binary` and the like are annotations here.
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'openapi');
});
afterAll(() => s?.close());

describe('/v2 answers as documented', () => {
  const key = () => ({ 'x-api-key': s.keys.production });

  it('hash, verify, hmac: 200', async () => {
    expect((await conforms(await post('/v2/hash', { data: 'abc' }, key()), '/v2/hash', 'post')).hash).toBe(ABC);
    expect((await conforms(await post('/v2/verify', { data: 'abc', hash: ABC }, key()), '/v2/verify', 'post')).valid).toBe(true);
    const hmac = await conforms(await post('/v2/hmac', { data: 'abc', key: 'k' }, key()), '/v2/hmac', 'post');
    expect(hmac.algorithm).toBe('HMAC-SHA-224');
  });

  it('batch, file, stream: 200 synchronously, 202 with a job, replayed, and the job through every state', async () => {
    const batch = await conforms(await post('/v2/batch', { items: [{ id: 'a', data: 'abc' }] }, key()), '/v2/batch', 'post');
    expect(batch.results).toEqual([{ id: 'a', hash: ABC }]);
    const file = await conforms(
      await fetch(`${s.url}/v2/file`, { method: 'POST', headers: key(), body: fileForm('abc') }),
      '/v2/file',
      'post',
    );
    expect(file.hash).toBe(ABC);
    const stream = await conforms(
      await fetch(`${s.url}/v2/stream`, { method: 'POST', headers: { ...key(), 'content-type': 'application/octet-stream' }, body: 'abc' }),
      '/v2/stream',
      'post',
    );
    expect(stream).toMatchObject({ hash: ABC, chunk_size: 1048576 });

    const idem = { ...key(), 'idempotency-key': randomUUID() };
    const jobs: Array<{ id: string; kind: string }> = [];
    const accepted = await conforms(
      await post('/v2/batch', { items: [{ id: 'a', data: 'abc' }] }, idem, '?async=true'),
      '/v2/batch',
      'post',
    );
    jobs.push({ id: accepted.job_id, kind: 'batch' });
    const replay = await post('/v2/batch', { items: [{ id: 'a', data: 'abc' }] }, idem, '?async=true');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await conforms(replay, '/v2/batch', 'post')).job_id).toBe(accepted.job_id);
    const reused = await post('/v2/batch', { items: [{ id: 'b', data: 'abc' }] }, idem, '?async=true');
    expect((await conforms(reused, '/v2/batch', 'post')).error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const fileJob = await fetch(`${s.url}/v2/file?async=true`, { method: 'POST', headers: key(), body: fileForm('abc') });
    jobs.push({ id: (await conforms(fileJob, '/v2/file', 'post')).job_id, kind: 'file' });
    const streamJob = await fetch(`${s.url}/v2/stream?async=true`, {
      method: 'POST',
      headers: { ...key(), 'content-type': 'application/octet-stream' },
      body: 'abc',
    });
    jobs.push({ id: (await conforms(streamJob, '/v2/stream', 'post')).job_id, kind: 'stream' });

    for (const job of jobs) {
      await expect
        .poll(async () => (await conforms(await fetch(`${s.url}/v2/jobs/${job.id}`, { headers: key() }), '/v2/jobs/{id}', 'get')).status, {
          timeout: 10_000,
          interval: 50,
        })
        .toBe('completed');
      const done = await conforms(await fetch(`${s.url}/v2/jobs/${job.id}`, { headers: key() }), '/v2/jobs/{id}', 'get');
      expect(done).toMatchObject({ job_id: job.id, status: 'completed', success: true });
      expect(job.kind === 'batch' ? done.results[0].hash : done.hash).toBe(ABC);
    }
  });

  it('a job of each state renders as one member of JobStatus', () => {
    const validate = ajv.getSchema('openapi#/components/schemas/JobStatus')!;
    const base = { id: 'j1', accountId: 'a', createdAt: 1_700_000_000_000 };
    const finishedAt = base.createdAt + 5;
    const records: JobRecord[] = [
      { ...base, kind: 'batch', state: 'queued', payload: { items: [], encoding: 'utf8', parallel: true, output: 'hex' } },
      { ...base, kind: 'file', state: 'active', payload: { blob: 'b', filename: 'f', chunkSize: 1024, output: 'hex' } },
      {
        ...base,
        kind: 'batch',
        state: 'completed',
        finishedAt,
        payload: { items: [{ id: 'a', data: 'abc' }], encoding: 'utf8', parallel: true, output: 'hex' },
        result: { results: [{ id: 'a', digest: ABC }] },
      },
      {
        ...base,
        kind: 'file',
        state: 'completed',
        finishedAt,
        payload: { blob: 'b', filename: 'f', chunkSize: 1024, output: 'base64' },
        result: { digest: ABC, size: 3 },
      },
      {
        ...base,
        kind: 'stream',
        state: 'completed',
        finishedAt,
        payload: { blob: 'b', chunkSize: 1024, output: 'hex' },
        result: { digest: ABC, size: 3 },
      },
      { ...base, kind: 'hash', state: 'completed', finishedAt, payload: { data: 'abc', encoding: 'utf8' }, result: { digest: ABC } },
      {
        ...base,
        kind: 'file',
        state: 'failed',
        finishedAt,
        payload: { blob: 'b', filename: 'f', chunkSize: 1024, output: 'hex' },
        error: { code: 'FILE_TOO_LARGE', message: 'File exceeds the maximum size' },
      },
    ] as JobRecord[];
    for (const record of records) {
      const body = jobStatusBody(record);
      expect(validate(body) ? [] : validate.errors, `${record.kind} ${record.state}: ${JSON.stringify(body)}`).toEqual([]);
    }
    // The schema is not a catch-all: a completed job without its result fields is refused.
    expect(validate({ success: true, job_id: 'j1', status: 'completed' })).toBe(false);
    expect(validate({ success: true, job_id: 'j1', status: 'failed' })).toBe(false);
  });

  it('error paths: 400, 401, 403, 404, 405, 413, 415, 429 in the v2 envelope', async () => {
    const codeOf = async (res: Response, path: string, method: 'get' | 'post' = 'post') => (await conforms(res, path, method)).error.code;
    expect(await codeOf(await post('/v2/hash', {}, key()), '/v2/hash')).toBe('INVALID_INPUT');
    expect(await codeOf(await post('/v2/hash', { data: 'abc' }), '/v2/hash')).toBe('UNAUTHORIZED');
    expect(await codeOf(await post('/v2/hash', { data: 'abc' }, { 'x-api-key': s.keys.read_only }), '/v2/hash')).toBe('FORBIDDEN');
    expect(await codeOf(await fetch(`${s.url}/v2/jobs/nope`, { headers: key() }), '/v2/jobs/{id}', 'get')).toBe('NOT_FOUND');
    expect(await codeOf(await fetch(`${s.url}/v2/hash`, { headers: key() }), '/v2/hash')).toBe('METHOD_NOT_ALLOWED');
    expect(await codeOf(await post('/v2/hash', { data: 'x'.repeat(5000) }, key()), '/v2/hash')).toBe('PAYLOAD_TOO_LARGE');
    const gz = await fetch(`${s.url}/v2/hash`, {
      method: 'POST',
      headers: { ...key(), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{"data":"abc"}'),
    });
    expect(await codeOf(gz, '/v2/hash')).toBe('UNSUPPORTED_MEDIA_TYPE');
    const noFile = await fetch(`${s.url}/v2/file`, {
      method: 'POST',
      headers: key(),
      body: (() => {
        const f = new FormData();
        f.append('output', 'hex');
        return f;
      })(),
    });
    expect(await codeOf(noFile, '/v2/file')).toBe('INVALID_INPUT');
    const stream = await fetch(`${s.url}/v2/stream`, { method: 'POST', headers: { ...key(), 'content-type': 'text/plain' }, body: 'abc' });
    expect(await codeOf(stream, '/v2/stream')).toBe('UNSUPPORTED_MEDIA_TYPE');

    const { secret } = await s.newKey({ plan: 'free', type: 'development' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/v2/hash', { data: 'abc' }, { 'x-api-key': secret })));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of answers) await conforms(r, '/v2/hash', 'post');
    expect(refused[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('/v1 answers as documented', () => {
  const bearer = () => ({ authorization: `Bearer ${s.keys.production}` });

  it('Set A: hash, verify (both bodies), file/hash, hmac, usage', async () => {
    expect((await conforms(await post('/v1/hash', { data: 'abc' }, bearer()), '/v1/hash', 'post')).hash).toBe(ABC);
    expect((await conforms(await post('/v1/verify', { data: 'abc', hash: ABC }, bearer()), '/v1/verify', 'post')).verified).toBe(true);
    expect((await conforms(await post('/v1/verify', { text: 'abc', hash: ABC }, bearer()), '/v1/verify', 'post')).valid).toBe(true);
    const file = await fetch(`${s.url}/v1/file/hash`, { method: 'POST', headers: bearer(), body: fileForm('abc') });
    expect((await conforms(file, '/v1/file/hash', 'post')).hash).toBe(ABC);
    await conforms(await post('/v1/hmac', { data: 'abc', key: 'k' }, bearer()), '/v1/hmac', 'post');
    await conforms(await fetch(`${s.url}/v1/usage`, { headers: bearer() }), '/v1/usage', 'get');
  });

  it('Set B: text, file, url, verify, batch, compare, status', async () => {
    expect((await conforms(await post('/v1/hash/text', { text: 'abc' }, bearer()), '/v1/hash/text', 'post')).hash).toBe(ABC);
    const file = await fetch(`${s.url}/v1/hash/file`, { method: 'POST', headers: bearer(), body: fileForm('abc') });
    expect((await conforms(file, '/v1/hash/file', 'post')).hash).toBe(ABC);
    const content = http.createServer((_req, res) => res.end('abc'));
    const port = await listenOnFreePort(content);
    try {
      const url = await post('/v1/hash/url', { url: `http://127.0.0.1:${port}/x` }, bearer());
      expect((await conforms(url, '/v1/hash/url', 'post')).hash).toBe(ABC);
    } finally {
      await new Promise((resolve) => content.close(resolve));
    }
    await conforms(await post('/v1/verify/text', { text: 'abc', hash: ABC }, bearer()), '/v1/verify/text', 'post');
    const verifyFile = await fetch(`${s.url}/v1/verify/file`, {
      method: 'POST',
      headers: bearer(),
      body: fileForm('xyz', { fields: { hash: sha224Hex('xyz') } }),
    });
    expect((await conforms(verifyFile, '/v1/verify/file', 'post')).valid).toBe(true);
    await conforms(await post('/v1/batch/hash', { items: [{ text: 'abc' }] }, bearer()), '/v1/batch/hash', 'post');
    await conforms(await post('/v1/batch/verify', { items: [{ text: 'abc', hash: ABC }] }, bearer()), '/v1/batch/verify', 'post');
    expect(
      (await conforms(await post('/v1/compare', { hash1: ABC, hash2: ABC.toUpperCase() }, bearer()), '/v1/compare', 'post')).match,
    ).toBe(true);
    await conforms(await fetch(`${s.url}/v1/status`, { headers: bearer() }), '/v1/status', 'get');
  });

  it('error paths: 400, 401, 403, 405, 413, 429 in the v1 envelope', async () => {
    const codeOf = async (res: Response, path: string, method: 'get' | 'post' = 'post') => (await conforms(res, path, method)).error.code;
    expect(await codeOf(await post('/v1/hash/text', {}, bearer()), '/v1/hash/text')).toBe('INVALID_INPUT');
    expect(await codeOf(await post('/v1/hash', { data: 'abc' }), '/v1/hash')).toBe('UNAUTHORIZED');
    expect(await codeOf(await fetch(`${s.url}/v1/usage`, { headers: { authorization: 'Bearer s224_wrong' } }), '/v1/usage', 'get')).toBe(
      'UNAUTHORIZED',
    );
    expect(await codeOf(await post('/v1/hash', { data: 'abc' }, { authorization: `Bearer ${s.keys.read_only}` }), '/v1/hash')).toBe(
      'FORBIDDEN',
    );
    expect(await codeOf(await fetch(`${s.url}/v1/compare`, { headers: bearer() }), '/v1/compare')).toBe('METHOD_NOT_ALLOWED');
    expect(await codeOf(await post('/v1/hash/text', { text: 'x'.repeat(5000) }, bearer()), '/v1/hash/text')).toBe('PAYLOAD_TOO_LARGE');
    expect(await codeOf(await post('/v1/hash/url', { url: 'http://169.254.169.254/' }, bearer()), '/v1/hash/url')).toBe('URL_NOT_ALLOWED');

    const { secret } = await s.newKey({ plan: 'free', type: 'development' });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post('/v1/hash', { data: 'a' }, { authorization: `Bearer ${secret}` })),
    );
    expect(answers.some((r) => r.status === 429)).toBe(true);
    for (const r of answers) await conforms(r, '/v1/hash', 'post');
  });
});

describe('/v2/uploads (tus 1.0) answers as documented', () => {
  it('create, HEAD, PATCH to the end, and DELETE of another upload', async () => {
    const tus = { 'x-api-key': s.keys.production, 'tus-resumable': '1.0.0' };
    const create = (): Promise<Response> => fetch(`${s.url}/v2/uploads`, { method: 'POST', headers: { ...tus, 'upload-length': '3' } });
    const created = await create();
    await conforms(created, '/v2/uploads', 'post');
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/v2\/uploads\//);
    const head = await fetch(`${s.url}${location}`, { method: 'HEAD', headers: tus });
    await conforms(head, '/v2/uploads/{id}', 'head');
    expect(head.headers.get('upload-offset')).toBe('0');
    const patch = await fetch(`${s.url}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      body: 'abc',
    });
    await conforms(patch, '/v2/uploads/{id}', 'patch');
    expect(patch.headers.get('upload-offset')).toBe('3');
    const other = (await create()).headers.get('location')!;
    await conforms(await fetch(`${s.url}${other}`, { method: 'DELETE', headers: tus }), '/v2/uploads/{id}', 'delete');
  });
});

describe('public paths answer as documented', () => {
  it('healthz, readyz, the SDK manifest and a content-addressed asset', async () => {
    await conforms(await fetch(`${s.url}/healthz`), '/healthz', 'get');
    await conforms(await fetch(`${s.url}/readyz`), '/readyz', 'get');
    const manifest = await conforms(await fetch(`${s.url}/sdk/manifest.json`), '/sdk/manifest.json', 'get');
    const asset = String(manifest.files['sha224.mjs'].url).replace('/sdk/', '');
    expect(asset).toMatch(new RegExp(doc.paths['/sdk/{asset}'].get.parameters[0].schema.pattern));
    const res = await fetch(`${s.url}/sdk/${asset}`);
    expect(res.status).toBe(200);
    expect(doc.paths['/sdk/{asset}'].get.responses['200'].content['text/javascript']).toBeDefined();
  });
});

describe('proof of existence (docs/proving.md)', () => {
  const key = () => ({ 'x-api-key': s.keys.production });
  it('log, receipts, consistency and the time-stamp refusal conform', async () => {
    const digest = '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7';
    const logged = await conforms(await post('/v2/log', { digest }, key()), '/v2/log', 'post');
    expect(logged.receipt.leaf.digest).toBe(digest);
    const hashed = await conforms(await post('/v2/hash', { data: 'abc', log: true }, key()), '/v2/hash', 'post');
    expect(hashed.receipt.leaf.digest).toBe(digest);
    const again = await conforms(await fetch(`${s.url}/v2/receipts/${logged.receipt.id}`, { headers: key() }), '/v2/receipts/{id}', 'get');
    expect(again.receipt.index).toBe(logged.receipt.index);
    const c = await conforms(await fetch(`${s.url}/v2/log/consistency?from=1`, { headers: key() }), '/v2/log/consistency', 'get');
    expect(c.from).toBe(1);
    const refused = await fetch(`${s.url}/v2/timestamp`, {
      method: 'POST',
      headers: { ...key(), 'content-type': 'text/plain' },
      body: 'x',
    });
    expect((await conforms(refused, '/v2/timestamp', 'post')).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('bulk jobs (docs/api.md "Bulk jobs")', () => {
  const key = () => ({ 'x-api-key': s.keys.production });
  it('create from NDJSON, status until completed, results, and cancel of a finished job conform', async () => {
    const lines = ['a', 'b', 'c'].map((data, i) => JSON.stringify({ id: `item-${i}`, data })).join('\n');
    const created = await conforms(
      await fetch(`${s.url}/v2/bulk`, { method: 'POST', headers: { ...key(), 'content-type': 'application/x-ndjson' }, body: lines }),
      '/v2/bulk',
      'post',
    );
    expect(created.items.total).toBe(3);
    const done = await waitFor(
      async () => {
        const status = await conforms(await fetch(`${s.url}/v2/bulk/${created.id}`, { headers: key() }), '/v2/bulk/{id}', 'get');
        return status.status === 'completed' ? status : undefined;
      },
      { what: 'the bulk job to complete' },
    );
    expect(done.summary.items).toBe(3);
    const results = await conforms(
      await fetch(`${s.url}/v2/bulk/${created.id}/results`, { headers: key() }),
      '/v2/bulk/{id}/results',
      'get',
    );
    expect(
      String(results)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).hash),
    ).toEqual(['a', 'b', 'c'].map((d) => sha224Hex(d)));
    const whole = String(results);
    const part = await conforms(
      await fetch(`${s.url}/v2/bulk/${created.id}/results`, { headers: { ...key(), range: 'bytes=10-29' } }),
      '/v2/bulk/{id}/results',
      'get',
    );
    expect(part).toBe(whole.slice(10, 30));
    const unsatisfiable = await conforms(
      await fetch(`${s.url}/v2/bulk/${created.id}/results`, { headers: { ...key(), range: `bytes=${Buffer.byteLength(whole)}-` } }),
      '/v2/bulk/{id}/results',
      'get',
    );
    expect(unsatisfiable.error.code).toBe('RANGE_NOT_SATISFIABLE');
    const cancelled = await conforms(
      await fetch(`${s.url}/v2/bulk/${created.id}`, { method: 'DELETE', headers: key() }),
      '/v2/bulk/{id}',
      'delete',
    );
    expect(cancelled.status).toBe('completed');
  });
});

describe('coverage', () => {
  it('exercised every /v2 and /v1 operation of the document', () => {
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => /^\/v[12]\//.test(p))
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`));
    const exercised = new Set([...seen].map((k) => k.split(' ').slice(0, 2).join(' ')));
    expect(operations.filter((o) => !exercised.has(o))).toEqual([]);
  });
});
