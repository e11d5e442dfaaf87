/**
 * The keep-alive race (docs/decisions.md "Webhooks"): a receiver closes a kept-alive connection
 * just as the sender reuses it. The attempt is sent once more at once, on a new connection to the
 * same checked addresses, when a REUSED connection failed before any byte of the answer; never
 * after answer bytes, never for a new connection's failure. The receiver here is a raw TCP server
 * that answers the first request of each connection with keep-alive and closes the connection
 * when the next request's first bytes arrive, so the race happens at every reuse.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender } from '../../shared/webhooks/send.js';
import { waitFor } from '../helpers/wait.js';
import { startWebhookFixture, type WebhookFixture } from './fixture.js';

type Close = 'fin' | 'rst';

interface RawReceiver {
  port: number;
  /** Requests (their first bytes) seen, with the client port of their connection. */
  requests: { remotePort: number; path: string }[];
  /** How a connection is closed when the next request arrives: FIN (destroy) or RST. */
  close: Close;
  /** Answers left to give (Infinity: no bound); at none left, even a new connection is closed at its first request. */
  answersLeft: number;
  /** Leave the next request on a connection unanswered and the connection open, instead of closing it. */
  stall: boolean;
  /** Send this many bytes of an answer before closing, instead of none. */
  partialAnswer: string;
  stop(): Promise<void>;
}

async function startRawReceiver(): Promise<RawReceiver> {
  const sockets = new Set<net.Socket>();
  const rx: RawReceiver = {
    port: 0,
    requests: [],
    close: 'fin',
    answersLeft: Infinity,
    partialAnswer: '',
    stall: false,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let served = 0;
    let buffered = Buffer.alloc(0);
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      if (!started) {
        started = true;
        rx.requests.push({ remotePort: socket.remotePort ?? 0, path: chunk.toString('latin1').split(' ')[1] ?? '' });
        if (served > 0 || rx.answersLeft <= 0) {
          if (rx.stall) return;
          if (rx.partialAnswer !== '') socket.write(rx.partialAnswer);
          if (rx.close === 'rst') socket.resetAndDestroy();
          else socket.destroy();
          return;
        }
      }
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(buffered.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = Buffer.alloc(0);
      started = false;
      served++;
      rx.answersLeft--;
      socket.write('HTTP/1.1 200 OK\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\ncontent-length: 2\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  rx.port = address.port;
  return rx;
}

const headers = { 'webhook-id': 'msg_stale', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,AAAA' };

let rx: RawReceiver;
beforeAll(async () => {
  rx = await startRawReceiver();
});
afterAll(async () => {
  await rx.stop();
});
afterEach(() => {
  rx.close = 'fin';
  rx.answersLeft = Infinity;
  rx.partialAnswer = '';
  rx.stall = false;
});

/** The first connection is back in its pool, free: the next attempt goes out on it. */
const idle = (sender: WebhookSender) => waitFor(() => sender.freeConnections === 1, { what: 'the kept-alive connection to be free' });

const at = (path: string) => rx.requests.filter((r) => r.path === path);

describe('a kept-alive connection closed by the receiver as it is reused', () => {
  it.each(['fin', 'rst'] as const)('is sent again at once on a new connection (closed by %s)', async (close) => {
    rx.close = close;
    const path = `/race-${close}`;
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1'] });
    try {
      const url = `http://127.0.0.1:${rx.port}${path}`;
      expect(await sender.send(url, headers, '{}')).toMatchObject({ status: 200, bodyExcerpt: 'ok' });
      await idle(sender);
      const second = await sender.send(url, headers, '{"n":2}');
      expect(second).toMatchObject({ status: 200, bodyExcerpt: 'ok' });
      expect(second.error).toBeUndefined();
      const ports = at(path).map((r) => r.remotePort);
      // The first connection served the first attempt and was closed at the second's first
      // bytes; the second attempt was answered on a connection of its own.
      expect(ports).toHaveLength(3);
      expect(ports[1]).toBe(ports[0]);
      expect(ports[2]).not.toBe(ports[0]);
    } finally {
      await sender.close();
    }
  });

  it('is not sent again when the new connection fails too: one failed attempt, no loop', async () => {
    rx.answersLeft = 1;
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1'] });
    try {
      const url = `http://127.0.0.1:${rx.port}/fresh-fails`;
      expect(await sender.send(url, headers, '{}')).toMatchObject({ status: 200 });
      await idle(sender);
      const second = await sender.send(url, headers, '{}');
      expect(second.status).toBeUndefined();
      expect(second.error).toBe('UND_ERR_SOCKET');
      const ports = at('/fresh-fails').map((r) => r.remotePort);
      expect(ports).toHaveLength(3);
      expect(ports[2]).not.toBe(ports[1]);
      // A new connection's failure alone is never sent again.
      expect(await sender.send(url, headers, '{}')).toMatchObject({ error: 'UND_ERR_SOCKET' });
      expect(at('/fresh-fails')).toHaveLength(4);
    } finally {
      await sender.close();
    }
  });

  it('is not sent again once bytes of the answer arrived', async () => {
    rx.partialAnswer = 'HTTP/1.1 200';
    const sender = new WebhookSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1'] });
    try {
      const url = `http://127.0.0.1:${rx.port}/partial`;
      expect(await sender.send(url, headers, '{}')).toMatchObject({ status: 200 });
      await idle(sender);
      const second = await sender.send(url, headers, '{}');
      expect(second.status).toBeUndefined();
      expect(second.error).toBe('UND_ERR_SOCKET');
      expect(at('/partial')).toHaveLength(2);
    } finally {
      await sender.close();
    }
  });
});

describe('a kept-alive connection that times out', () => {
  it('is not sent again: the attempt timed out', async () => {
    rx.stall = true;
    const sender = new WebhookSender({ timeoutMs: 1000, allowCidrs: ['127.0.0.1'] });
    try {
      const url = `http://127.0.0.1:${rx.port}/stalled`;
      expect(await sender.send(url, headers, '{}')).toMatchObject({ status: 200 });
      await idle(sender);
      expect(await sender.send(url, headers, '{}')).toMatchObject({ error: 'timeout' });
      expect(at('/stalled')).toHaveLength(2);
    } finally {
      await sender.close();
    }
  });
});

describe('a delivery whose reused connection the receiver closed', () => {
  let fx: WebhookFixture;
  beforeAll(async () => {
    // A failed attempt's retry comes an hour later: every request seen is this attempt's.
    fx = await startWebhookFixture({ schedule: '0,1h' });
  });
  afterAll(async () => {
    await fx.close();
  });

  async function deliver(endpointId: string, jobId: string) {
    const [id] = await fx.webhooks.service.jobFinished(
      { id: jobId, kind: 'hash', accountId: fx.accountId, state: 'completed' },
      { endpointId },
    );
    expect(id).toBeDefined();
    return waitFor(
      async () => {
        const d = await fx.webhooks.core.store.delivery(id!);
        return d !== undefined && d.attempts > 0 && d;
      },
      { what: `the first attempt of ${jobId}'s delivery` },
    );
  }

  it('is one delivered attempt, and no failure is counted against the endpoint', async () => {
    const { endpoint } = await fx.webhooks.service.createEndpoint({
      accountId: fx.accountId,
      url: `http://127.0.0.1:${rx.port}/delivery-race`,
      eventTypes: [],
    });
    expect(await deliver(endpoint.id, 'job-race-1')).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
    expect(await deliver(endpoint.id, 'job-race-2')).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 200,
      lastError: undefined,
    });
    expect(at('/delivery-race')).toHaveLength(3);
    expect(await fx.webhooks.core.store.endpoint(endpoint.id)).toMatchObject({ failingSince: undefined, disabledAt: undefined });
  });

  it('is one failed attempt when the new connection fails too', async () => {
    const { endpoint } = await fx.webhooks.service.createEndpoint({
      accountId: fx.accountId,
      url: `http://127.0.0.1:${rx.port}/delivery-fails`,
      eventTypes: [],
    });
    expect(await deliver(endpoint.id, 'job-fails-1')).toMatchObject({ status: 'delivered', attempts: 1 });
    rx.answersLeft = 0;
    expect(await deliver(endpoint.id, 'job-fails-2')).toMatchObject({ status: 'pending', attempts: 1, lastError: 'UND_ERR_SOCKET' });
    expect(at('/delivery-fails')).toHaveLength(3);
    expect((await fx.webhooks.core.store.endpoint(endpoint.id))?.failingSince).toEqual(expect.any(Number));
  });
});
