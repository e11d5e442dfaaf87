/**
 * /asyncapi.json: served publicly with CORS and revalidation; a valid AsyncAPI 3.0 document for
 * @asyncapi/parser 3.6.3 (no error, no warning); and true of the live service: every message a
 * real `ws` or socket.io-client session receives validates (ajv) against the payload schema of the
 * message the document names for it, replies carry the request's `id`, refusals and close codes are
 * the documented ones, and the document's own examples are valid and accepted by the server.
 */
import http from 'node:http';
import { DiagnosticSeverity, Parser, type AsyncAPIDocumentInterface } from '@asyncapi/parser';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeOrigin } from '../../api/docs/asyncapi.js';
import { loadConfig } from '../../shared/config.js';
import { getJson, postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { sha224Base64, sha224Hex } from '../helpers/digests.js';
import { connectSocketIo, emitWithAck, refusedUpgrade, WsClient, wsUrl } from '../realtime/clients.js';

interface Message {
  name: string;
  payload: Record<string, unknown>;
  correlationId?: { location: string };
  examples?: Array<{ payload: unknown }>;
}

interface Doc {
  asyncapi: string;
  servers: Record<string, { host: string; protocol: string; pathname?: string }>;
  channels: Record<
    string,
    { address: string; 'x-close-codes'?: Array<{ code: number }>; 'x-handshake-refusals'?: Array<{ status: number; code: string }> }
  >;
  components: { messages: Record<string, Message> };
}

let s: TestServer;
let doc: Doc;
let parsed: AsyncAPIDocumentInterface;
const validators = new Map<string, ValidateFunction>();

/** Asserts `value` is valid for component message `name`, naming the first error. */
function expectMessage(name: string, value: unknown): void {
  const validate = validators.get(name);
  if (validate === undefined) throw new Error(`no message ${name} in the document`);
  const ok = validate(value);
  expect(ok, `${name}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(value)}`).toBe(true);
}

function expectNotMessage(name: string, value: unknown): void {
  expect(validators.get(name)!(value), `${name} should refuse ${JSON.stringify(value)}`).toBe(false);
}

beforeAll(async () => {
  s = await startTestServer({ realtime: {} });
  const res = await getJson(`${s.url}/asyncapi.json`);
  expect(res.status).toBe(200);
  doc = res.body as Doc;
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const [name, m] of Object.entries(doc.components.messages)) validators.set(name, ajv.compile(m.payload));
  const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
  // No error, no warning; of the hints only "a newer AsyncAPI exists" (3.1.0) is allowed.
  const serious = new Set([DiagnosticSeverity.Error, DiagnosticSeverity.Warning]);
  expect(
    diagnostics.filter((d) => serious.has(d.severity) || d.code !== 'asyncapi-latest-version').map((d) => `${d.code}: ${d.message}`),
  ).toEqual([]);
  parsed = document!;
});

afterAll(async () => {
  await s?.close();
});

describe('GET /asyncapi.json', () => {
  it('is public JSON with CORS, cacheable and revalidated by ETag', async () => {
    const res = await fetch(`${s.url}/asyncapi.json`, { headers: { origin: 'https://docs.example.org' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(`${s.url}/asyncapi.json`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const preflight = await fetch(`${s.url}/asyncapi.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const post = await postJson(`${s.url}/asyncapi.json`, {});
    expect(post.status).toBe(405);
    expect(post.body).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
    expect((await fetch(`${s.url}/asyncapi.json/x`)).status).toBe(404);
    expect(res.headers.get('vary')).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
  });

  it('names the origin the client reached, PUBLIC_URL above it, and never echoes a malformed Host', async () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORT: '9000' });
    expect(realtimeOrigin(config, { host: 'api.example.com', protocol: 'https' })).toEqual({ host: 'api.example.com', secure: true });
    expect(realtimeOrigin(config, { host: '[::1]:8080', protocol: 'http' })).toEqual({ host: '[::1]:8080', secure: false });
    expect(realtimeOrigin(config, { host: 'evil.example/"x', protocol: 'http' })).toEqual({ host: '127.0.0.1:9000', secure: false });
    expect(realtimeOrigin(loadConfig({ PUBLIC_URL: 'https://hash.example.com' }), { host: 'other.example', protocol: 'http' })).toEqual({
      host: 'hash.example.com',
      secure: true,
    });
    // fetch cannot set Host; node:http can.
    const asked = await new Promise<Doc>((resolve, reject) => {
      http
        .get(`${s.url}/asyncapi.json`, { headers: { host: 'docs.example.net:8443' } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(JSON.parse(text) as Doc));
        })
        .on('error', reject);
    });
    expect(asked.servers.webSocket).toMatchObject({ host: 'docs.example.net:8443', protocol: 'ws' });
  });

  it('is AsyncAPI 3.0 with both interfaces, their operations and the listener they run on', () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(parsed.version()).toBe('3.0.0');
    expect(
      parsed
        .channels()
        .all()
        .map((c) => c.address()),
    ).toEqual(['/v2/ws', '/v2', null]); // webhooks: null, each endpoint's own URL (test/webhooks/asyncapi.test.ts)
    expect(
      parsed
        .operations()
        .all()
        .map((o) => `${o.action()} ${o.id()}`),
    ).toEqual([
      'receive hashOverWebSocket',
      'receive hashOverSocketIo',
      'receive subscribeToJob',
      'send pushJob',
      'send refuseConnection',
      'send deliverWebhook',
    ]);
    const host = new URL(s.url).host;
    expect(doc.servers.webSocket).toMatchObject({ host, protocol: 'ws' });
    expect(doc.servers.socketIo).toMatchObject({ host, protocol: 'ws', pathname: '/socket.io' });
    for (const name of ['wsHashRequest', 'wsHashReply', 'errorReply', 'socketHashReply']) {
      expect(doc.components.messages[name]!.correlationId?.location ?? '$message.payload#/id').toBe('$message.payload#/id');
    }
  });

  it('has examples that are valid for their own schemas', () => {
    let examples = 0;
    for (const [name, m] of Object.entries(doc.components.messages)) {
      for (const e of m.examples ?? []) {
        expectMessage(name, e.payload);
        examples += 1;
      }
    }
    expect(examples).toBeGreaterThanOrEqual(6);
  });

  it('refuses what the server refuses (the schemas are not vacuous)', () => {
    expectNotMessage('wsHashRequest', { action: 'hash', data: 'abc' });
    expectNotMessage('wsHashRequest', { action: 'hash', id: '', data: 'abc' });
    expectNotMessage('wsHashRequest', { action: 'hash', id: '1', data: 'abc', options: { output: 'octal' } });
    expectNotMessage('wsHashReply', {
      id: '1',
      success: true,
      hash: 'x',
      algorithm: 'SHA-256',
      encoding: 'hex',
      timestamp: 't',
      processing_time_ms: 0,
    });
    expectNotMessage('errorReply', { id: '1', success: false, error: { code: 'X', message: 'm' } });
  });
});

describe('the live service matches the document', () => {
  it('/v2/ws: replies validate, carry the request id, errors keep the connection open', async () => {
    const client = await WsClient.open(wsUrl(s.url, s.keys.production));
    try {
      const example = doc.components.messages.wsHashRequest!.examples![0]!.payload as { id: string; data: string };
      const ok = await client.request(example);
      expectMessage('wsHashReply', ok);
      expect(ok).toMatchObject({ id: example.id, hash: sha224Hex(example.data) });

      const base64 = await client.request({ action: 'hash', id: 'b64', data: 'YWJj', options: { encoding: 'base64', output: 'base64' } });
      expectMessage('wsHashReply', base64);
      expect(base64.hash).toBe(sha224Base64('abc'));

      for (const [id, bad] of [
        ['x1', { action: 'nope', id: 'x1', data: 'abc' }],
        ['x2', { action: 'hash', id: 'x2', data: 'zz', options: { encoding: 'hex' } }],
      ] as const) {
        const reply = await client.request(bad);
        expectMessage('errorReply', reply);
        expect(reply).toMatchObject({ id, success: false, error: { code: 'INVALID_INPUT' } });
      }
      client.send('not json');
      const [, , , , notJson] = await client.waitForReplies(5);
      expectMessage('errorReply', notJson);
      expect(notJson).toMatchObject({ id: null, error: { code: 'INVALID_INPUT' } });

      // Past WS_MAX_MESSAGE_BYTES: a documented close code.
      client.send(JSON.stringify({ action: 'hash', id: 'big', data: 'a'.repeat(1024 * 1024 + 1) }));
      const { code } = await client.closed;
      expect(code).toBe(1009);
      expect(doc.channels.webSocket!['x-close-codes']!.map((c) => c.code)).toContain(code);
    } finally {
      await client.close();
    }
  });

  it('/v2/ws: a refused upgrade is a documented status with a connectError-shaped body', async () => {
    const documented = doc.channels.webSocket!['x-handshake-refusals']!;
    for (const [url, status, code] of [
      [wsUrl(s.url), 401, 'UNAUTHORIZED'],
      [wsUrl(s.url, s.keys.read_only), 403, 'FORBIDDEN'],
    ] as const) {
      const refusal = await refusedUpgrade(url);
      expect(refusal.status).toBe(status);
      expect(documented).toContainEqual(expect.objectContaining({ status, code }));
      expectMessage('connectError', refusal.body);
      expect(refusal.body.error.code).toBe(code);
    }
  });

  it('socket.io /v2: hash acknowledgements, subscribe and the job event validate; refusals are connectError', async () => {
    const socket = await connectSocketIo(s.url, { api_key: s.keys.production });
    try {
      const example = doc.components.messages.socketHashRequest!.examples![0]!.payload as { id: string };
      const withId = await emitWithAck(socket, 'hash', example);
      expectMessage('socketHashReply', withId);
      expect(withId).toMatchObject({ id: example.id, hash: sha224Hex('abc') });
      const withoutId = await emitWithAck(socket, 'hash', { data: 'abc' });
      expectMessage('socketHashReply', withoutId);
      expect(withoutId.id).toBeNull();
      const result = new Promise<unknown>((resolve) => socket.once('result', resolve));
      socket.emit('hash', { id: 'no-ack', data: 'abc' });
      expectMessage('socketHashReply', await result);
      const bad = await emitWithAck(socket, 'hash', { data: 'abc', options: { output: 'octal' } });
      expectMessage('errorReply', bad);

      const accepted = await postJson(
        `${s.url}/v2/batch?async=true`,
        { items: [{ id: 'a', data: 'abc' }] },
        { 'X-API-Key': s.keys.production },
      );
      expect(accepted.status).toBe(202);
      const job = new Promise<unknown>((resolve) => socket.once('job', resolve));
      const ack = await emitWithAck(socket, 'subscribe', { job_id: accepted.body.job_id });
      expectMessage('subscribeAck', ack);
      const pushed = await job;
      expectMessage('jobEvent', pushed);
      expect(pushed).toMatchObject({ job_id: accepted.body.job_id, status: 'completed', results: [{ id: 'a', hash: sha224Hex('abc') }] });
      const unknown = await emitWithAck(socket, 'subscribe', 'no-such-job');
      expectMessage('errorReply', unknown);
      expect(unknown.error.code).toBe('NOT_FOUND');
    } finally {
      socket.close();
    }
    const refused = await connectSocketIo(s.url, { api_key: 's224_wrong' }).then(
      () => undefined,
      (err: { data?: unknown }) => err.data,
    );
    expectMessage('connectError', refused);
  });
});
