/**
 * Bounded time for every connection: headers, body idle, the whole request (except /v2/stream,
 * whose slow uploads that keep sending are not cut off), keep-alive, WebSocket handshakes, and a
 * cap on concurrent connections. Short settings so each bound is crossed in well under a second;
 * the assertions are the answers and that the server closed, with generous upper bounds.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../api/http/listeners.js';
import { startServer } from '../../api/server.js';
import { createLogger } from '../../shared/log.js';
import { startTestServer, type TestServer } from '../helpers/api-server.js';
import { exchange, head } from './raw-client.js';
import { sha224Hex } from '../helpers/digests.js';

const HEADERS_MS = 300;
const IDLE_MS = 300;
const TOTAL_MS = 900;
const KEEP_ALIVE_MS = 300;
/** Slack for the checker's period and scheduling on a busy 2-core machine. */
const SLACK_MS = 3000;

describe('request and connection timeouts', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startTestServer({
      env: {
        HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        BODY_IDLE_TIMEOUT_MS: String(IDLE_MS),
        REQUEST_TIMEOUT_MS: String(TOTAL_MS),
        KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      },
    });
    port = Number(new URL(s.url).port);
  });
  afterAll(() => s.close());

  it('headers that never finish: 408 REQUEST_TIMEOUT in the envelope, then closed', async () => {
    const x = await exchange(port, { head: 'POST /v1/hash HTTP/1.1\r\nHost: x\r\n' });
    expect(x.responses).toHaveLength(1);
    expect(x.responses[0]!.status).toBe(408);
    // Node reports no request line for a header timeout: the default (v2) envelope (docs/limits.md).
    expect(x.responses[0]!.json).toEqual({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', message: 'The request headers were not received in time', details: 'headers' },
    });
    expect(x.serverClosed).toBe(true);
    expect(x.closedAfterMs).toBeLessThan(HEADERS_MS + SLACK_MS);
  });

  it('a body that trickles but never ends is cut at REQUEST_TIMEOUT_MS with 408', async () => {
    const trickle = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 'a' : 100));
    const x = await exchange(port, {
      head: head('POST', '/v2/hash', { 'X-API-Key': s.keys.production, 'Content-Type': 'application/json', 'Content-Length': 1000 }),
      then: ['{"data":"', ...trickle],
    });
    expect(x.responses[0]?.status).toBe(408);
    expect(x.responses[0]?.json).toEqual({
      success: false,
      error: {
        code: 'REQUEST_TIMEOUT',
        message: 'The request was not received in time',
        details: `the request took longer than ${TOTAL_MS} ms to arrive`,
      },
    });
    expect(x.serverClosed).toBe(true);
    expect(x.closedAfterMs).toBeGreaterThanOrEqual(TOTAL_MS);
  });

  it('the next request on a kept-alive connection is bounded from its own start', async () => {
    // The watch keeps one entry per connection (api/http/request-timeouts.ts): a second request
    // reuses it, with its own start and target, after the first was answered.
    const x = await exchange(port, {
      head:
        head('GET', '/healthz', {}) +
        head('POST', '/v2/hash', { 'X-API-Key': s.keys.production, 'Content-Type': 'application/json', 'Content-Length': 100 }),
      then: ['{"data":"'],
      responses: 2,
    });
    expect(x.responses.map((r) => r.status)).toEqual([200, 408]);
    expect(x.responses[1]?.json).toEqual({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', message: 'The request body stalled', details: `no body bytes arrived for ${IDLE_MS} ms` },
    });
    expect(x.serverClosed).toBe(true);
  });

  it('/v2/stream is not cut by REQUEST_TIMEOUT_MS while it keeps sending', async () => {
    const pieces = Array.from({ length: 12 }, (_, i) => `piece ${i};`);
    const body = pieces.join('');
    const chunked = pieces.flatMap((p) => [`${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`, 100]);
    const x = await exchange(port, {
      head: head('POST', '/v2/stream', {
        'X-API-Key': s.keys.production,
        'Content-Type': 'application/octet-stream',
        'Transfer-Encoding': 'chunked',
      }),
      then: [...chunked, '0\r\n\r\n'],
    });
    expect(x.closedAfterMs).toBeGreaterThan(TOTAL_MS);
    expect(x.responses[0]?.status).toBe(200);
    expect((x.responses[0]?.json as { hash: string }).hash).toBe(sha224Hex(body));
  });

  it('/v2/stream is still cut when it stalls (body idle)', async () => {
    const x = await exchange(port, {
      head: head('POST', '/v2/stream', {
        'X-API-Key': s.keys.production,
        'Content-Type': 'application/octet-stream',
        'Transfer-Encoding': 'chunked',
      }),
      then: ['3\r\nabc\r\n'],
    });
    expect(x.responses[0]?.status).toBe(408);
    expect(x.serverClosed).toBe(true);
  });

  it('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const x = await exchange(port, { head: head('GET', '/healthz', {}), responses: 2 });
    expect(x.responses.map((r) => r.status)).toEqual([200]);
    expect(x.serverClosed).toBe(true);
    expect(x.closedAfterMs).toBeLessThan(KEEP_ALIVE_MS + SLACK_MS);
  });
});

describe('WebSocket handshakes and the connection cap', () => {
  let server: RunningServer;
  const logger = createLogger('silent');
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end('ok'), {
      port: 0,
      host: '127.0.0.1',
      logger,
      edge: {
        headersTimeoutMs: 5000,
        bodyIdleTimeoutMs: 5000,
        requestTimeoutMs: 5000,
        keepAliveTimeoutMs: 5000,
        wsHandshakeTimeoutMs: 300,
        maxConnections: 3,
      },
    });
    // An upgrade handler that never answers (an authentication that hangs).
    server.server.on('upgrade', () => undefined);
  });
  afterAll(() => server.close(100));

  it('an upgrade left unanswered is closed after WS_HANDSHAKE_TIMEOUT_MS', async () => {
    const x = await exchange(server.port, {
      head: head('GET', '/v2/ws', {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': 13,
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      }),
    });
    expect(x.serverClosed).toBe(true);
    expect(x.responses).toEqual([]);
    expect(x.closedAfterMs).toBeLessThan(300 + SLACK_MS);
  });

  it('connections past MAX_CONNECTIONS are closed at once; the others still work', async () => {
    const open = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect(server.port, '127.0.0.1', () => resolve(socket));
          }),
      ),
    );
    try {
      // The server counts a connection once it has accepted it.
      await expect.poll(() => new Promise((r) => server.server.getConnections((_e, n) => r(n))), { timeout: 2000 }).toBe(3);
      const refused = await exchange(server.port, { head: head('GET', '/', {}) });
      expect(refused.serverClosed).toBe(true);
      expect(refused.responses).toEqual([]);
    } finally {
      for (const socket of open) socket.destroy();
    }
    await expect.poll(() => new Promise((r) => server.server.getConnections((_e, n) => r(n))), { timeout: 2000 }).toBe(0);
    const served = await exchange(server.port, { head: head('GET', '/', { Connection: 'close' }) });
    expect(served.responses.map((r) => r.status)).toEqual([200]);
  });
});
