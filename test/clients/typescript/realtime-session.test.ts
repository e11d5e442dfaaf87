/**
 * The WebSocket session against a scripted /v2/ws server (`ws`): the in-flight bound, reconnect
 * after the server drops the connection (unanswered requests are sent again), a rate-limit reply
 * sent again after retry_after, and a refused upgrade reported as its typed error without retrying.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { AuthenticationError, Sha224dClient } from '../../../api/clients/typescript/src/node.js';
import { sha224Hex } from '../../helpers/digests.js';

interface Message {
  id: string;
  data: string;
}

type Handler = (socket: WebSocket, message: Message, connection: number) => void;

const reply = (socket: WebSocket, m: Message): void =>
  socket.send(
    JSON.stringify({
      id: m.id,
      success: true,
      hash: sha224Hex(m.data),
      algorithm: 'SHA-224',
      encoding: 'hex',
      timestamp: 't',
      processing_time_ms: 0,
    }),
  );

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function scriptedServer(onMessage: Handler, refuse?: number): Promise<{ url: string; connections: () => number }> {
  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true });
  let connections = 0;
  server.on('upgrade', (req, socket, head) => {
    if (refuse !== undefined) {
      const body = JSON.stringify({ success: false, error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API key', details: '' } });
      socket.end(`HTTP/1.1 ${refuse} Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      connections += 1;
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = ++connections;
      ws.on('message', (data: Buffer) => onMessage(ws, JSON.parse(data.toString()) as Message, connection));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = async () => {
    for (const ws of wss.clients) ws.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, connections: () => connections };
}

const session = (url: string, options = {}) =>
  new Sha224dClient({ apiKey: 's224_test', baseUrl: url, retry: { baseDelayMs: 10, random: () => 0.5 } }).realtime(options);

describe('WebSocket session', () => {
  it('never has more than maxInFlight requests unanswered at the server', async () => {
    let unanswered = 0;
    let peak = 0;
    const { url } = await scriptedServer((socket, m) => {
      peak = Math.max(peak, ++unanswered);
      setImmediate(() => {
        unanswered -= 1;
        reply(socket, m);
      });
    });
    const s = session(url, { maxInFlight: 8 });
    const inputs = Array.from({ length: 100 }, (_, i) => `m${i}`);
    const replies = await Promise.all(inputs.map((d) => s.hash(d)));
    s.close();
    expect(replies.map((r) => r.hash)).toEqual(inputs.map((d) => sha224Hex(d)));
    expect(peak).toBe(8);
  });

  it('reconnects after the server drops the connection and sends the unanswered requests again', async () => {
    const { url, connections } = await scriptedServer((socket, m, connection) => {
      // The first connection answers m0 and m1, then goes away (as a node shutting down does).
      if (connection === 1 && (m.data === 'm0' || m.data === 'm1')) reply(socket, m);
      else if (connection === 1 && m.data === 'm4') socket.close(1001, 'server shutting down');
      else if (connection > 1) reply(socket, m);
    });
    const s = session(url);
    const inputs = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const replies = await Promise.all(inputs.map((d) => s.hash(d)));
    s.close();
    expect(replies.map((r) => r.hash)).toEqual(inputs.map((d) => sha224Hex(d)));
    expect(connections()).toBe(2);
  });

  it('a rate-limit reply is sent again after its retry_after', async () => {
    const seen: number[] = [];
    const { url } = await scriptedServer((socket, m) => {
      seen.push(performance.now());
      if (seen.length === 1) {
        socket.send(
          JSON.stringify({
            id: m.id,
            success: false,
            error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests', details: '', retry_after: 1 },
          }),
        );
      } else reply(socket, m);
    });
    const s = session(url);
    expect((await s.hash('abc')).hash).toBe(sha224Hex('abc'));
    s.close();
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(990);
  });

  it('an error reply rejects only its own request, typed', async () => {
    const { url } = await scriptedServer((socket, m) => {
      if (m.data === 'bad') {
        socket.send(
          JSON.stringify({
            id: m.id,
            success: false,
            error: { code: 'INVALID_INPUT', message: 'data is not valid hex', details: 'field: data' },
          }),
        );
      } else reply(socket, m);
    });
    const s = session(url);
    const [bad, good] = await Promise.allSettled([s.hash('bad'), s.hash('good')]);
    s.close();
    expect(bad).toMatchObject({ status: 'rejected', reason: { code: 'INVALID_INPUT', status: 400, details: 'field: data' } });
    expect(good).toMatchObject({ status: 'fulfilled', value: { hash: sha224Hex('good') } });
  });

  it('a refused upgrade is its typed error, and is not retried', async () => {
    const { url, connections } = await scriptedServer(() => undefined, 401);
    const s = session(url);
    const err = await s.hash('abc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(connections()).toBe(1);
    s.close();
  });

  it('refuses a message over 1 MiB before sending it', async () => {
    const { url } = await scriptedServer(reply);
    const s = session(url);
    await expect(s.hash('x'.repeat(1024 * 1024))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await s.hash('small')).hash).toBe(sha224Hex('small'));
    s.close();
  });
});
