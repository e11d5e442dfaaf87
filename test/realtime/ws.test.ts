/**
 * WebSocket /v2/ws in embedded mode, with the real `ws` client: protocol, errors, limits,
 * ping/pong and backpressure.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestServer, type TestServer } from '../helpers/api-server.js';
import { SHA224_ABC as ABC, sha224Base64, sha224Hex } from '../helpers/digests.js';
import { holdsFor, stallFor, waitFor } from '../helpers/wait.js';
import { openWhenSlotFree, pipeline, refusedUpgrade, WsClient, wsUrl } from './clients.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('/v2/ws protocol (embedded)', () => {
  let s: TestServer;
  let client: WsClient;
  beforeAll(async () => {
    s = await startTestServer({ realtime: {} });
    client = await WsClient.open(wsUrl(s.url, s.keys.production));
  });
  afterAll(async () => {
    await client.close();
    await s.close();
  });

  it('answers {id, success, hash, timestamp} with the /v2/hash fields', async () => {
    const reply = await client.request({ action: 'hash', id: 'a1', data: 'abc' });
    expect(reply).toEqual({
      id: 'a1',
      success: true,
      hash: ABC,
      algorithm: 'SHA-224',
      encoding: 'hex',
      timestamp: expect.stringMatching(ISO_MS),
      processing_time_ms: expect.any(Number),
    });
  });

  it('writes the reply as {id} followed by the /v2/hash body, field for field in the same order', async () => {
    for (const output of ['hex', 'base64', 'binary'] as const) {
      const text = new Promise<string>((resolve) => client.ws.once('message', (data: Buffer) => resolve(data.toString('utf8'))));
      client.send({ action: 'hash', id: `order-${output}`, data: 'abc', options: { output } });
      const raw = await text;
      const http = await postJson(`${s.url}/v2/hash`, { data: 'abc', output }, { 'x-api-key': s.keys.production });
      const { timestamp, processing_time_ms } = JSON.parse(raw) as { timestamp: string; processing_time_ms: number };
      expect(timestamp).toMatch(ISO_MS);
      expect(raw).toBe(JSON.stringify({ id: `order-${output}`, ...http.body, timestamp, processing_time_ms }));
    }
  });

  it('honours options.encoding and options.output as /v2/hash does (binary → base64)', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    const cases = [
      [{ encoding: 'hex', output: 'hex' }, bytes.toString('hex'), sha224Hex(bytes), 'hex'],
      [{ encoding: 'base64', output: 'base64' }, bytes.toString('base64'), sha224Base64(bytes), 'base64'],
      [{ encoding: 'utf8', output: 'binary' }, 'abc', Buffer.from(ABC, 'hex').toString('base64'), 'base64'],
    ] as const;
    for (const [options, data, hash, encoding] of cases) {
      const ws = await client.request({ action: 'hash', id: `o-${options.output}`, data, options });
      const http = await postJson(`${s.url}/v2/hash`, { data, ...options }, { 'x-api-key': s.keys.production });
      expect(ws).toMatchObject({ success: true, hash, encoding });
      expect(http.body.hash).toBe(ws.hash);
    }
  });

  it('answers 10,000 pipelined messages on one connection, each with the right hash', async () => {
    const encodings = ['utf8', 'hex', 'base64'] as const;
    const outputs = ['hex', 'base64', 'binary'] as const;
    const inputs = Array.from({ length: 10_000 }, (_, i) => randomBytes(i % 200));
    const replies = await pipeline(client, inputs.length, 200, (i) => {
      const encoding = encodings[i % 3]!;
      const data = encoding === 'utf8' ? inputs[i]!.toString('hex') : inputs[i]!.toString(encoding);
      return { action: 'hash', data, options: { encoding, output: outputs[(i >> 2) % 3]! } };
    });
    let wrong = 0;
    replies.forEach((reply, i) => {
      const encoding = encodings[i % 3]!;
      const bytes = encoding === 'utf8' ? Buffer.from(inputs[i]!.toString('hex')) : inputs[i]!;
      const expected = outputs[(i >> 2) % 3] === 'hex' ? sha224Hex(bytes) : sha224Base64(bytes);
      if (reply.id !== `m${i}` || reply.success !== true || reply.hash !== expected) wrong += 1;
    });
    expect(wrong).toBe(0);
  });

  it('pushes each reply when its job finishes: a queued large input is overtaken by small ones', async () => {
    const big = 'x'.repeat(900 * 1024); // over INLINE_MAX_BYTES (64 KiB): through the job queue
    const start = client.replies.length;
    client.send({ action: 'hash', id: 'big', data: big });
    for (let i = 0; i < 5; i++) client.send({ action: 'hash', id: `small${i}`, data: String(i) });
    const replies = (await client.waitForReplies(start + 6)).slice(start);
    expect(replies.map((r) => r.id)).toContain('big');
    expect(replies.find((r) => r.id === 'big').hash).toBe(sha224Hex(big));
    expect(replies[replies.length - 1].id).toBe('big');
  });

  it.each([
    ['malformed JSON', '{"action":"hash",', null, 'INVALID_INPUT', 'Message is not valid JSON'],
    ['a JSON array', '[1,2]', null, 'INVALID_INPUT', 'Message must be a JSON object'],
    ['an unknown action', { action: 'verify', id: 'u1', data: 'abc' }, 'u1', 'INVALID_INPUT', 'Unknown action "verify"; supported: hash'],
    ['no action', { id: 'u2', data: 'abc' }, 'u2', 'INVALID_INPUT', 'The action parameter is required; supported: hash'],
    [
      'bad hex',
      { action: 'hash', id: 'h1', data: 'zz', options: { encoding: 'hex' } },
      'h1',
      'INVALID_INPUT',
      'data is not valid hex (even number of 0-9a-f characters)',
    ],
    ['missing data', { action: 'hash', id: 'd1' }, 'd1', 'INVALID_INPUT', 'The data parameter is required'],
    [
      'an unknown output',
      { action: 'hash', id: 'p1', data: 'a', options: { output: 'hexx' } },
      'p1',
      'INVALID_INPUT',
      'options.output must be one of hex, base64, binary',
    ],
    ['no id', { action: 'hash', data: 'abc' }, null, 'INVALID_INPUT', 'The id parameter is required'],
  ])('answers %s with an error and keeps the connection open', async (_name, message, id, code, text) => {
    const start = client.replies.length;
    client.send(message);
    const [reply] = (await client.waitForReplies(start + 1)).slice(start);
    expect(reply).toEqual({ id, success: false, error: { code, message: text, details: expect.any(String) } });
    expect((await client.request({ action: 'hash', id: 'after', data: 'abc' })).hash).toBe(ABC);
  });

  it('closes with 1009 on a message over 1 MiB', async () => {
    const other = await WsClient.open(wsUrl(s.url, s.keys.production));
    other.send({ action: 'hash', id: 'huge', data: 'a'.repeat(1024 * 1024) });
    expect((await other.closed).code).toBe(1009);
    expect(other.replies).toEqual([]);
  });
});

describe('/v2/ws upgrade: authentication, permission, Origin, connection limits (embedded)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ realtime: {} });
  });
  afterAll(() => s.close());

  it.each([
    ['no key', undefined],
    ['a malformed key', 'not-a-key'],
    ['a well-formed unknown key', 's224_' + 'A'.repeat(38)],
  ])('refuses %s with 401 UNAUTHORIZED', async (_name, key) => {
    const r = await refusedUpgrade(wsUrl(s.url, key));
    expect(r).toEqual({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key', details: expect.any(String) } },
    });
  });

  it('refuses two different api_key parameters with 401', async () => {
    const url = `${wsUrl(s.url, s.keys.production)}&api_key=${s.keys.development}`;
    expect((await refusedUpgrade(url)).status).toBe(401);
  });

  it('refuses a read-only key with 403 FORBIDDEN', async () => {
    const r = await refusedUpgrade(wsUrl(s.url, s.keys.read_only));
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'FORBIDDEN', details: 'this credential lacks the hash permission' });
  });

  it('accepts a client key only from an allowed Origin', async () => {
    expect((await refusedUpgrade(wsUrl(s.url, s.keys.client))).status).toBe(403);
    expect((await refusedUpgrade(wsUrl(s.url, s.keys.client), { origin: 'https://evil.example.net' })).body.error.details).toBe(
      'client key used from a domain it does not allow',
    );
    const ok = await WsClient.open(wsUrl(s.url, s.keys.client), { origin: 'https://app.example.com' });
    expect((await ok.request({ action: 'hash', id: 'c', data: 'abc' })).hash).toBe(ABC);
    await ok.close();
    // Compared as a browser serialises the origin: host case and the default port do not matter.
    const spelled = await WsClient.open(wsUrl(s.url, s.keys.client), { origin: 'https://APP.example.com:443' });
    expect((await spelled.request({ action: 'hash', id: 'd', data: 'abc' })).hash).toBe(ABC);
    await spelled.close();
  });

  it('refuses an upgrade to an unknown path with 404', async () => {
    const url = wsUrl(s.url, s.keys.production).replace('/v2/ws', '/v2/nope');
    expect((await refusedUpgrade(url)).status).toBe(404);
  });

  it('free plan: a second connection is refused with 429 TOO_MANY_CONNECTIONS until the first closes', async () => {
    const { secret } = await s.newKey({ plan: 'free' });
    const first = await WsClient.open(wsUrl(s.url, secret));
    const r = await refusedUpgrade(wsUrl(s.url, secret));
    expect(r).toEqual({
      status: 429,
      body: {
        success: false,
        error: {
          code: 'TOO_MANY_CONNECTIONS',
          message: 'Too many concurrent connections',
          details: 'the free plan allows 1 concurrent WebSocket connections; close one before opening another',
        },
      },
    });
    await first.close();
    const again = await openWhenSlotFree(wsUrl(s.url, secret));
    await again.close();
  });

  it('basic plan: five connections, not six', async () => {
    const { secret } = await s.newKey({ plan: 'basic' });
    const open = await Promise.all(Array.from({ length: 5 }, () => WsClient.open(wsUrl(s.url, secret))));
    expect((await refusedUpgrade(wsUrl(s.url, secret))).status).toBe(429);
    await Promise.all(open.map((c) => c.close()));
  });

  it('free plan: 10 messages a second; the excess is answered RATE_LIMIT_EXCEEDED and the connection stays open', async () => {
    const { secret } = await s.newKey({ plan: 'free' });
    const client = await WsClient.open(wsUrl(s.url, secret));
    for (let i = 0; i < 25; i++) client.send({ action: 'hash', id: `r${i}`, data: 'abc' });
    const replies = await client.waitForReplies(25);
    const limited = replies.filter((r) => r.success === false);
    // A burst may straddle one window boundary: at most 2 × 10 pass.
    expect(replies.length - limited.length).toBeLessThanOrEqual(20);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited[0]).toMatchObject({
      id: expect.stringMatching(/^r\d+$/),
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests', retry_after: 1 },
    });
    expect(limited[0].error.details).toMatch(/^rate limit of 10 requests per second exceeded/);
    // The input: a client that waits the retry_after it was given (plus a margin) is served again.
    await stallFor(limited[0].error.retry_after * 1000 + 100);
    expect((await client.request({ action: 'hash', id: 'later', data: 'abc' })).success).toBe(true);
    await client.close();
  });
});

describe('/v2/ws daily quota is shared with HTTP (embedded)', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-plans-'));
    const plansFile = path.join(dir, 'plans.json');
    fs.writeFileSync(plansFile, JSON.stringify({ plans: { basic: { dailyQuota: 5 } } }));
    s = await startTestServer({ realtime: {}, env: { PLANS_FILE: plansFile } });
  });
  afterAll(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('each hash message counts like an HTTP request against the daily quota', async () => {
    const { secret } = await s.newKey({ plan: 'basic' });
    expect((await postJson(`${s.url}/v2/hash`, { data: 'abc' }, { 'x-api-key': secret })).status).toBe(200);
    const client = await WsClient.open(wsUrl(s.url, secret));
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await client.request({ action: 'hash', id: `q${i}`, data: 'abc' }));
    expect(replies.map((r) => r.success)).toEqual([true, true, true, true, false]);
    expect(replies[4].error).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      details: 'daily quota of 5 requests exceeded; it resets at 00:00 UTC',
    });
    const http = await postJson(`${s.url}/v2/hash`, { data: 'abc' }, { 'x-api-key': secret });
    expect(http.status).toBe(429);
    await client.close();
  });
});

describe('/v2/ws liveness and backpressure (embedded)', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Every input through the job queue (4 at a time), so messages pile up in flight.
    s = await startTestServer({
      env: { INLINE_MAX_BYTES: '0' },
      realtime: { pingIntervalMs: 200, maxInFlight: 32, sendHighWaterBytes: 64 * 1024 },
    });
  });
  afterAll(() => s.close());

  it('terminates a peer that stops answering pings, and keeps one that answers', async () => {
    const dead = await WsClient.open(wsUrl(s.url, s.keys.production), { autoPong: false });
    const alive = await WsClient.open(wsUrl(s.url, s.keys.production));
    const started = Date.now();
    expect((await dead.closed).code).toBe(1006);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await alive.request({ action: 'hash', id: 'alive', data: 'abc' })).hash).toBe(ABC);
    await alive.close();
  });

  it('answers a flood beyond the in-flight bound: every message exactly once, the excess RATE_LIMIT_EXCEEDED', async () => {
    const client = await WsClient.open(wsUrl(s.url, s.keys.production));
    const count = 3000;
    for (let i = 0; i < count; i++) client.send({ action: 'hash', id: `f${i}`, data: `flood ${i}` });
    const replies = await client.waitForReplies(count);
    await holdsFor(() => replies.length === count, { forMs: 100, what: 'one reply per message (no duplicate)' });
    expect(replies).toHaveLength(count);
    expect(new Set(replies.map((r) => r.id)).size).toBe(count);
    const overloaded = replies.filter((r) => r.success === false);
    expect(overloaded.length).toBeGreaterThan(0);
    for (const r of overloaded)
      expect(r.error).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        retry_after: 1,
        details: expect.stringContaining('in flight on this connection'),
      });
    for (const r of replies.filter((x) => x.success)) expect(r.hash).toBe(sha224Hex(`flood ${r.id.slice(1)}`));
    // Healthy afterwards, on this connection and on a new one.
    expect((await client.request({ action: 'hash', id: 'after', data: 'abc' })).hash).toBe(ABC);
    await client.close();
  });
});

describe('/v2/ws send-side backpressure (embedded)', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Pings stay at the default: a client that reads nothing cannot answer them either.
    s = await startTestServer({ realtime: { sendHighWaterBytes: 64 * 1024 } });
  });
  afterAll(() => s.close());

  it('stops reading from a client that does not read its replies, and resumes when it does', async () => {
    const client = await WsClient.open(wsUrl(s.url, s.keys.production));
    const socket = (client.ws as unknown as { _socket: Socket })._socket;
    socket.pause(); // the client reads nothing
    const count = 40_000;
    const message = JSON.stringify({ action: 'hash', id: 'x', data: 'abc' });
    for (let i = 0; i < count; i++) client.ws.send(message);
    // Kernel buffers take a few MB of replies; then the server stops reading this connection.
    await waitFor(() => s.realtime!.stats().paused > 0, { timeoutMs: 20_000, what: 'the server to stop reading' });
    expect(s.realtime!.stats().paused).toBe(1);
    const received = s.realtime!.stats().received;
    await holdsFor(() => s.realtime!.stats().received === received, { forMs: 500, what: 'no message read while paused' });
    expect(s.realtime!.stats().received).toBe(received);
    expect(received).toBeLessThan(count);
    socket.resume();
    const replies = await client.waitForReplies(count, 60_000);
    expect(replies.every((r) => r.success === true || r.error.code === 'RATE_LIMIT_EXCEEDED')).toBe(true);
    expect(s.realtime!.stats().paused).toBe(0);
    await client.close();
  });
});
