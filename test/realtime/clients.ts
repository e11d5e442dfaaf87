/** Real clients for the realtime tests: `ws` for /v2/ws, socket.io-client for namespace /v2. */
import { io, type Socket } from 'socket.io-client';
import { WebSocket, type ClientOptions } from 'ws';
import { waitFor } from '../helpers/wait.js';

export function wsUrl(httpUrl: string, apiKey?: string): string {
  const url = new URL('/v2/ws', httpUrl.replace(/^http/, 'ws'));
  if (apiKey !== undefined) url.searchParams.set('api_key', apiKey);
  return url.toString();
}

export interface Refusal {
  status: number;
  body: any;
}

/** A /v2/ws client that collects every reply and resolves requests by id. */
export class WsClient {
  readonly replies: any[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiting = new Map<string, (reply: any) => void>();
  private readonly watchers = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('error', () => undefined);
    ws.on('message', (data: Buffer) => {
      const reply = JSON.parse(data.toString());
      this.replies.push(reply);
      const waiter = typeof reply.id === 'string' ? this.waiting.get(reply.id) : undefined;
      if (waiter) {
        this.waiting.delete(reply.id);
        waiter(reply);
      }
      for (const w of this.watchers) w();
    });
  }

  /** Opens, or rejects with the HTTP refusal ({status, body}) of the upgrade. */
  static open(url: string, options: ClientOptions = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, ...options });
      ws.once('open', () => resolve(new WsClient(ws)));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          reject(Object.assign(new Error(`upgrade refused with ${res.statusCode}`), { status: res.statusCode, body }));
        });
      });
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Send a message with `id` and resolve with its reply. */
  request(message: { id: string } & Record<string, unknown>): Promise<any> {
    const reply = new Promise<any>((resolve) => this.waiting.set(message.id, resolve));
    this.send(message);
    return reply;
  }

  /** Resolves once `count` replies have arrived in all. */
  async waitForReplies(count: number, timeoutMs = 30_000): Promise<any[]> {
    if (this.replies.length >= count) return this.replies;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`only ${this.replies.length} of ${count} replies after ${timeoutMs} ms`));
      }, timeoutMs);
      const check = (): void => {
        if (this.replies.length >= count) {
          clearTimeout(timer);
          this.watchers.delete(check);
          resolve();
        }
      };
      this.watchers.add(check);
    });
    return this.replies;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    else if (this.ws.readyState !== WebSocket.CLOSED) this.ws.terminate();
    await this.closed;
  }
}

/** The upgrade's refusal ({status, body}); fails the test if the connection opened. */
export async function refusedUpgrade(url: string, options: ClientOptions = {}): Promise<Refusal> {
  try {
    const client = await WsClient.open(url, options);
    await client.close();
  } catch (err) {
    const { status, body } = err as Partial<Refusal>;
    if (status !== undefined) return { status, body };
    throw err;
  }
  throw new Error('the upgrade was accepted');
}

/** A closed connection frees its slot once the server has seen the close, not when close() resolves. */
const SLOT_FREED_WITHIN_MS = 10_000;

/** Opens /v2/ws, retrying while the upgrade is refused with 429 (the plan's connections are in use); any other refusal fails. */
export function openWhenSlotFree(url: string, options: ClientOptions = {}): Promise<WsClient> {
  return waitFor(
    () =>
      WsClient.open(url, options).catch((err: unknown) => {
        if ((err as Partial<Refusal>).status === 429) return undefined;
        throw err;
      }),
    { timeoutMs: SLOT_FREED_WITHIN_MS, what: 'a free /v2/ws connection slot' },
  );
}

/**
 * Pipeline `count` hash messages with at most `window` unanswered; resolves with every reply in
 * request order. `make(i)` builds message i (its id is set here).
 */
export async function pipeline(
  client: WsClient,
  count: number,
  window: number,
  make: (i: number) => Record<string, unknown>,
): Promise<any[]> {
  const replies = new Array<any>(count);
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    let done = 0;
    const sendOne = (): void => {
      const i = next++;
      client
        .request({ ...make(i), id: `m${i}` })
        .then((reply) => {
          replies[i] = reply;
          done += 1;
          if (done === count) resolve();
          else if (next < count) sendOne();
        })
        .catch(reject);
    };
    for (let k = 0; k < Math.min(window, count); k++) sendOne();
  });
  return replies;
}

/** A connected socket.io client on namespace /v2, or the connect_error's data. */
export function connectSocketIo(
  httpUrl: string,
  auth: Record<string, string> = {},
  extra: { query?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(`${httpUrl}/v2`, {
      path: '/socket.io',
      transports: ['websocket'],
      auth,
      query: extra.query,
      extraHeaders: extra.headers,
      reconnection: false,
      forceNew: true,
      timeout: 10_000,
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err: Error & { data?: unknown }) => {
      socket.close();
      reject(Object.assign(new Error(err.message), { data: err.data }));
    });
  });
}

/** Connects to socket.io /v2, retrying while refused with TOO_MANY_CONNECTIONS; any other refusal fails. */
export function connectSocketIoWhenSlotFree(httpUrl: string, auth: Record<string, string>): Promise<Socket> {
  return waitFor(
    () =>
      connectSocketIo(httpUrl, auth).catch((err: unknown) => {
        if ((err as { data?: { error?: { code?: unknown } } }).data?.error?.code === 'TOO_MANY_CONNECTIONS') return undefined;
        throw err;
      }),
    { timeoutMs: SLOT_FREED_WITHIN_MS, what: 'a free socket.io connection slot' },
  );
}

export function emitWithAck(socket: Socket, event: string, payload: unknown, timeoutMs = 10_000): Promise<any> {
  return socket.timeout(timeoutMs).emitWithAck(event, payload);
}
