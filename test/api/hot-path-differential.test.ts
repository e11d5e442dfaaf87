/**
 * The hot path (api/http/hot-path.ts) answers exactly as Express does: the same node started with
 * HOT_PATH=on and with HOT_PATH=off gets the same requests, over every hot route of both
 * generations, successes and refusals, and the full answers are compared: status, every header in
 * the order sent (Date, X-Request-Id, Keep-Alive and the rate window's clock-bound values aside)
 * and the body (the v2 processing time and timestamp aside).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Express } from 'express';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC } from '../helpers/digests.js';

/** Headers that differ between any two answers, or with the second a request lands in. */
const PER_ANSWER = new Set(['date', 'x-request-id', 'keep-alive', 'x-ratelimit-reset', 'retry-after', 'x-ratelimit-retry-after']);
/** Body fields that do (timing, clock), wherever they occur. */
const PER_ANSWER_FIELDS = new Set(['timestamp', 'processing_time_ms', 'processingTimeMs', 'retry_after', 'duration_ms', 'durationMs']);

interface Answer {
  status: number;
  headers: Array<[string, string]>;
  body: unknown;
}

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, PER_ANSWER_FIELDS.has(k) ? '(varies)' : scrub(v)]));
}

/** One request on its own connection; the raw header list keeps names' case and order. */
function send(base: string, path: string, body: string | Buffer, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const pairs: Array<[string, string]> = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          const value = PER_ANSWER.has(name.toLowerCase()) ? '(varies)' : res.rawHeaders[i + 1]!;
          // Content-Length follows the scrubbed fields' digits; the body comparison covers it.
          pairs.push([name, name.toLowerCase() === 'content-length' && /processing|timestamp/i.test(text) ? '(varies)' : value]);
        }
        let parsed: unknown = text;
        try {
          parsed = scrub(JSON.parse(text));
        } catch {
          // Not JSON: compared as text.
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Node {
  server: TestServer;
  /** Requests the Express app was handed. */
  expressCalls: () => number;
  keys: { free: string; readOnly: string; client: string; production: string };
}

async function start(hot: 'on' | 'off', env: Record<string, string> = {}): Promise<Node> {
  let calls = 0;
  const server = await startTestServer({
    env: { HOT_PATH: hot, MAX_JSON_BYTES: '2048', ...env },
    onApp: (app: Express) => {
      // Express's app calls its own `handle` for every request it is handed (express/lib/express.js).
      const target = app as unknown as { handle: (...args: unknown[]) => unknown };
      const handle = target.handle.bind(app);
      target.handle = (...args: unknown[]) => {
        calls++;
        return handle(...args);
      };
    },
  });
  const free = await server.newKey({ type: 'development', plan: 'free' });
  return {
    server,
    expressCalls: () => calls,
    keys: { free: free.secret, readOnly: server.keys.read_only, client: server.keys.client, production: server.keys.production },
  };
}

type Case = [name: string, path: string, body: string | Buffer, headers: (keys: Node['keys']) => Record<string, string>];

const JSON_TYPE = { 'content-type': 'application/json' };
const v2 = (keys: Node['keys']): Record<string, string> => ({ ...JSON_TYPE, 'x-api-key': keys.production });
const v1 = (keys: Node['keys']): Record<string, string> => ({ ...JSON_TYPE, authorization: `Bearer ${keys.production}` });
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const withoutContentType = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-type'));
const big = JSON.stringify({ data: 'x'.repeat(4096) });

const V2_BODIES: Record<string, string> = {
  hash: '{"data":"abc"}',
  verify: `{"data":"abc","hash":"${SHA224_ABC}"}`,
  hmac: '{"data":"abc","key":"k"}',
  batch: '{"items":[{"id":"a","data":"abc"},{"id":"b","data":"abd","output":"base64"}]}',
};
const V1_BODIES: Record<string, string> = {
  hash: '{"data":"abc"}',
  verify: `{"data":"abc","hash":"${SHA224_ABC}"}`,
  hmac: '{"data":"abc","key":"k"}',
  'hash/text': '{"text":"abc"}',
  'verify/text': `{"text":"abc","hash":"${SHA224_ABC}"}`,
};

function casesOf(prefix: string, bodies: Record<string, string>, auth: (keys: Node['keys']) => Record<string, string>): Case[] {
  return Object.entries(bodies).flatMap(([route, body]): Case[] => {
    const path = `${prefix}/${route}`;
    return [
      ['success', path, body, auth],
      [
        'success with a request id and traceparent',
        path,
        body,
        (k) => ({ ...auth(k), 'x-request-id': 'client-id-1', traceparent: TRACEPARENT }),
      ],
      ['bad JSON', path, '{"data":', auth],
      ['a JSON string', path, '"abc"', auth],
      ['validation error', path, '{"data":5,"hash":7,"key":1,"items":"x","text":3}', auth],
      ['too large (declared)', path, big, auth],
      ['too large (chunked)', path, Buffer.from(big), (k) => ({ ...auth(k), 'transfer-encoding': 'chunked' })],
      ['charset not UTF-8', path, body, (k) => ({ ...auth(k), 'content-type': 'application/json; charset=latin1' })],
      ['gzip', path, body, (k) => ({ ...auth(k), 'content-encoding': 'gzip' })],
      ['no content type', path, body, (k) => withoutContentType(auth(k))],
      ['missing key', path, body, () => JSON_TYPE],
      ['invalid key', path, body, () => ({ ...JSON_TYPE, 'x-api-key': 'sk_not_a_key', authorization: 'Bearer sk_not_a_key' })],
      ['malformed Authorization', path, body, () => ({ ...JSON_TYPE, authorization: 'Basic abc' })],
      ['read-only key', path, body, (k) => ({ ...JSON_TYPE, 'x-api-key': k.readOnly, authorization: `Bearer ${k.readOnly}` })],
      ['client key, no Origin', path, body, (k) => ({ ...JSON_TYPE, 'x-api-key': k.client, authorization: `Bearer ${k.client}` })],
      [
        'client key from an allowed Origin',
        path,
        body,
        (k) => ({ ...JSON_TYPE, 'x-api-key': k.client, authorization: `Bearer ${k.client}`, origin: 'https://app.example.com' }),
      ],
    ];
  });
}

const CASES: Case[] = [...casesOf('/v2', V2_BODIES, v2), ...casesOf('/v1', V1_BODIES, v1)];

describe('the hot path answers as Express does (HOT_PATH on and off)', () => {
  let on: Node;
  let off: Node;
  beforeAll(async () => {
    [on, off] = await Promise.all([start('on'), start('off')]);
  });
  afterAll(async () => {
    await Promise.all([on.server.close(), off.server.close()]);
  });

  it.each(CASES)('%s: POST %s', async (_name, path, body, headers) => {
    const before = on.expressCalls();
    const hot = await send(on.server.url, path, body, headers(on.keys));
    const express = await send(off.server.url, path, body, headers(off.keys));
    expect(hot).toEqual(express);
    // The hot node served it without Express; the other through it.
    expect(on.expressCalls()).toBe(before);
    expect(off.expressCalls()).toBeGreaterThan(0);
  });

  it.each([
    ['/v2/hash', V2_BODIES.hash!, (k: Node['keys']) => ({ ...JSON_TYPE, 'x-api-key': k.free })],
    ['/v1/hash', V1_BODIES.hash!, (k: Node['keys']) => ({ ...JSON_TYPE, authorization: `Bearer ${k.free}` })],
    ['/v1/hash/text', V1_BODIES['hash/text']!, (k: Node['keys']) => ({ ...JSON_TYPE, authorization: `Bearer ${k.free}` })],
  ])('rate limited: POST %s past the window', async (path, body, headers) => {
    // A free plan's development key: one request per window; the rest of the burst is refused.
    const burst = async (node: Node): Promise<Answer[]> =>
      Promise.all([1, 2, 3].map(() => send(node.server.url, path, body, headers(node.keys))));
    const [hot, express] = await Promise.all([burst(on), burst(off)]);
    const refused = (answers: Answer[]): Answer | undefined => answers.find((a) => a.status === 429);
    expect(refused(hot)).toBeDefined();
    expect(refused(hot)).toEqual(refused(express));
  });

  it('leaves to Express what is not exactly a hot route', async () => {
    for (const path of ['/v2/hash?x=1', '/v2/hash/', '/V2/hash', '/v2/file', '/v1/hash/file']) {
      const before = on.expressCalls();
      const hot = await send(on.server.url, path, V2_BODIES.hash!, v2(on.keys));
      const express = await send(off.server.url, path, V2_BODIES.hash!, v2(off.keys));
      expect(hot, path).toEqual(express);
      expect(on.expressCalls(), path).toBe(before + 1);
    }
  });

  it('hashes as node:crypto does on the hot path', async () => {
    const answer = await send(on.server.url, '/v2/hash', V2_BODIES.hash!, v2(on.keys));
    expect(answer.status).toBe(200);
    expect((answer.body as { hash?: string }).hash ?? JSON.stringify(answer.body)).toContain(SHA224_ABC);
  });
});

describe('the hot path answers as Express does behind a proxy and on the sandbox host', () => {
  let on: Node;
  let off: Node;
  const env = { TRUST_PROXY: 'loopback', PUBLIC_URL: 'https://api.example.com', SANDBOX_HOST: 'sandbox.example.com' };
  beforeAll(async () => {
    [on, off] = await Promise.all([start('on', env), start('off', env)]);
  });
  afterAll(async () => {
    await Promise.all([on.server.close(), off.server.close()]);
  });

  const https = { 'x-forwarded-proto': 'https' };
  it.each<[string, string, (keys: Node['keys']) => Record<string, string>, number]>([
    ['over HTTPS', '/v2/hash', (k) => ({ ...v2(k), ...https }), 200],
    ['over HTTPS', '/v1/hash', (k) => ({ ...v1(k), ...https }), 200],
    ['a key over plain HTTP', '/v2/hash', v2, 403],
    ['a key over plain HTTP', '/v1/hash/text', v1, 403],
    ['no key over plain HTTP (redirect)', '/v2/verify', () => JSON_TYPE, 308],
    ['on the sandbox host', '/v2/hash', (k) => ({ ...v2(k), ...https, host: 'sandbox.example.com' }), 404],
    ['on the sandbox host', '/v1/hash', (k) => ({ ...v1(k), ...https, host: 'sandbox.example.com' }), 200],
  ])('%s: POST %s', async (_name, path, headers, status) => {
    const body = path.startsWith('/v1/hash/text') ? V1_BODIES['hash/text']! : V2_BODIES.hash!;
    const before = on.expressCalls();
    const hot = await send(on.server.url, path, body, headers(on.keys));
    const express = await send(off.server.url, path, body, headers(off.keys));
    expect(hot.status).toBe(status);
    expect(hot).toEqual(express);
    expect(on.expressCalls()).toBe(before);
  });
});
