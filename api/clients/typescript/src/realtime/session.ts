/**
 * A /v2/ws hashing session (docs/realtime.md): requests correlated by id, at most `maxInFlight`
 * unanswered at once (the service refuses past 256), and reconnection with backoff after the
 * connection drops, re-sending what was unanswered (hashing is a pure computation). A reply
 * refused for the rate limit is sent again after its `retry_after`, within the retry budget.
 */
import type { ClientContext } from '../context.js';
import { errorFromEnvelope, InvalidRequestError, NetworkError, Sha224dError } from '../errors.js';
import type { components } from '../generated/realtime.js';
import type { RealtimeSocket } from '../platform.js';
import { abortReason, backoffMs, retryDelayMs, sleep } from '../retry.js';

export type WsHashMessage = components['schemas']['WsHashMessage'];
export type WsHashReply = components['schemas']['WsHashReply'];
export type WsErrorReply = components['schemas']['WsErrorReply'];
export type WsHashOptions = NonNullable<WsHashMessage['options']>;

/** docs/realtime.md: a message over 1 MiB closes the connection with 1009. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface SessionOptions {
  /** Requests unanswered at once; more wait for a slot. Default 64 (the service allows 256). */
  maxInFlight?: number;
  /** Reconnection attempts after the connection drops; 0 disables. Default 5. */
  maxReconnects?: number;
}

interface Pending {
  id: string;
  text: string;
  retries: number;
  resolve: (reply: WsHashReply) => void;
  reject: (err: Error) => void;
}

type State = 'idle' | 'connecting' | 'open' | 'closed';

export class HashSession {
  private readonly pending = new Map<string, Pending>();
  private readonly slotWaiters: Array<() => void> = [];
  private readonly maxInFlight: number;
  private readonly maxReconnects: number;
  private socket: RealtimeSocket | undefined;
  private connecting: Promise<void> | undefined;
  private state: State = 'idle';
  private nextId = 0;
  /** Requests holding an in-flight slot. */
  private active = 0;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly context: ClientContext,
    options: SessionOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 64;
    this.maxReconnects = options.maxReconnects ?? 5;
    if (!Number.isInteger(this.maxInFlight) || this.maxInFlight < 1) throw new RangeError('maxInFlight must be an integer >= 1');
    if (!Number.isInteger(this.maxReconnects) || this.maxReconnects < 0) throw new RangeError('maxReconnects must be an integer >= 0');
  }

  /** Requests sent (or waiting to be re-sent) and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Opens the connection now (hash() opens it on first use). */
  open(): Promise<void> {
    if (this.state === 'closed') return Promise.reject(closedError());
    if (this.state === 'open') return Promise.resolve();
    this.connecting ??= this.connect(0).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** SHA-224 of `data` over the session; resolves with the service's reply for this request. */
  async hash(data: string, options: WsHashOptions & { signal?: AbortSignal } = {}): Promise<WsHashReply> {
    const { signal, ...hashOptions } = options;
    await this.acquireSlot(signal);
    const id = (this.nextId++).toString(36);
    const message: WsHashMessage = { action: 'hash', id, data, options: hashOptions };
    const text = JSON.stringify(message);
    if (this.encoder.encode(text).byteLength > MAX_MESSAGE_BYTES) {
      this.releaseSlot();
      throw new InvalidRequestError({
        code: 'PAYLOAD_TOO_LARGE',
        message: `a WebSocket message is at most ${MAX_MESSAGE_BYTES} bytes; upload larger inputs with client.upload()`,
      });
    }
    return new Promise<WsHashReply>((resolve, reject) => {
      const entry: Pending = { id, text, retries: 0, resolve, reject };
      this.pending.set(id, entry);
      this.open().then(
        () => this.transmit(entry),
        (err: unknown) => this.settle(id, err instanceof Error ? err : new Error(String(err))),
      );
    });
  }

  /** Closes the connection; requests still unanswered are rejected. */
  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.socket?.close(1000, 'client closed');
    this.socket = undefined;
    for (const id of [...this.pending.keys()]) this.settle(id, closedError());
    for (const wake of this.slotWaiters.splice(0)) wake();
  }

  private async connect(attempt: number): Promise<void> {
    this.state = 'connecting';
    const url = this.context.transport.url('/v2/ws', { api_key: this.context.authorizer.realtimeKey() });
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    for (let tries = attempt; ; tries++) {
      try {
        const socket = await this.context.platform.connectWebSocket(url.toString());
        if (this.isClosed()) {
          socket.close(1000, 'client closed');
          throw closedError();
        }
        this.socket = socket;
        this.state = 'open';
        socket.onMessage((text) => this.onMessage(text));
        socket.onClose((code) => this.onClose(socket, code));
        return;
      } catch (err) {
        if (this.isClosed()) throw closedError();
        // Refusals other than "busy" (401, 403, 404) will not change by waiting.
        const transient = err instanceof NetworkError || (err instanceof Sha224dError && (err.status === 429 || err.status === 503));
        if (!transient || tries >= this.maxReconnects) {
          this.state = 'idle';
          throw err;
        }
        await sleep(err instanceof Sha224dError && err.retryAfter ? err.retryAfter * 1000 : backoffMs(this.context.retry, tries));
      }
    }
  }

  /** Read through a method: `state` changes while connect() awaits, which narrowing cannot see. */
  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private onClose(socket: RealtimeSocket, code: number): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    if (this.state === 'closed') return;
    this.state = 'idle';
    if (this.pending.size === 0) return;
    if (this.maxReconnects === 0) {
      const err = new NetworkError({ code: 'NETWORK_ERROR', message: `WebSocket closed (code ${code})` });
      for (const id of [...this.pending.keys()]) this.settle(id, err);
      return;
    }
    // Unanswered requests are sent again on the new connection.
    this.connecting ??= this.connect(1).finally(() => (this.connecting = undefined));
    this.connecting.then(
      () => {
        for (const entry of this.pending.values()) this.transmit(entry);
      },
      (err: unknown) => {
        for (const id of [...this.pending.keys()]) this.settle(id, err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  private transmit(entry: Pending): void {
    if (this.state === 'open' && this.socket !== undefined && this.pending.get(entry.id) === entry) this.socket.send(entry.text);
  }

  private onMessage(text: string): void {
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof reply !== 'object' || reply === null) return;
    const { id, success } = reply as { id?: unknown; success?: unknown };
    const entry = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (entry === undefined) return;
    if (success === true) return this.settle(entry.id, undefined, reply as WsHashReply);
    const error = errorFromEnvelope(reply);
    const delay = error.code === 'RATE_LIMIT_EXCEEDED' ? retryDelayMs(this.context.retry, entry.retries, error.retryAfter ?? 1) : undefined;
    if (delay === undefined) return this.settle(entry.id, error);
    entry.retries += 1;
    setTimeout(() => this.transmit(entry), delay);
  }

  private settle(id: string, error: Error | undefined, reply?: WsHashReply): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    this.pending.delete(id);
    this.releaseSlot();
    if (error !== undefined) entry.reject(error);
    else entry.resolve(reply!);
  }

  /** Waits until fewer than maxInFlight requests hold a slot, then takes one. */
  private async acquireSlot(signal: AbortSignal | undefined): Promise<void> {
    while (this.active >= this.maxInFlight) {
      if (signal?.aborted) throw abortReason(signal);
      await new Promise<void>((wake) => {
        this.slotWaiters.push(wake);
        signal?.addEventListener('abort', () => wake(), { once: true });
      });
    }
    if (this.state === 'closed') throw closedError();
    this.active += 1;
  }

  private releaseSlot(): void {
    this.active -= 1;
    this.slotWaiters.shift()?.();
  }
}

function closedError(): NetworkError {
  return new NetworkError({ code: 'SESSION_CLOSED', message: 'the WebSocket session is closed' });
}
