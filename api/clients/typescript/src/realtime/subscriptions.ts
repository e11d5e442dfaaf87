/**
 * socket.io job subscriptions (namespace /v2, docs/realtime.md): `subscribe` a job id, then one
 * `job` event with the GET /v2/jobs/{id} body when it completes or fails. One connection per client
 * is shared by every wait in progress and closed when the last one ends: the plan's connection
 * limit counts socket.io connections (Free allows one).
 */
import type { ClientContext } from '../context.js';
import { errorFromEnvelope, NetworkError, waitTimeout } from '../errors.js';
import type { SocketIoSocket } from '../platform.js';
import { abortReason } from '../retry.js';
import type { JobStatus } from '../types.js';

interface Connection {
  socket: SocketIoSocket;
  users: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export class JobSubscriptions {
  private connection: Promise<Connection> | undefined;

  constructor(private readonly context: ClientContext) {}

  /** socket.io-client is installed and the credential is an API key. */
  async available(): Promise<boolean> {
    try {
      this.context.authorizer.realtimeKey();
    } catch {
      return false;
    }
    return (await this.context.platform.loadSocketIo()) !== undefined;
  }

  async subscribe(id: string, deadline: number, signal: AbortSignal | undefined): Promise<JobStatus> {
    const connection = await this.acquire();
    const { socket } = connection;
    try {
      return await new Promise<JobStatus>((resolve, reject) => {
        const cleanup = (): void => {
          clearTimeout(timer);
          socket.off('job', onJob);
          socket.off('disconnect', onDisconnect);
          signal?.removeEventListener('abort', onAbort);
        };
        const finish = (action: () => void): void => {
          cleanup();
          action();
        };
        const onJob = (...args: unknown[]): void => {
          const body = args[0];
          if (isRecord(body) && body.job_id === id) finish(() => resolve(body as JobStatus));
        };
        const onDisconnect = (): void =>
          finish(() => reject(new NetworkError({ code: 'NETWORK_ERROR', message: 'socket.io connection lost' })));
        const onAbort = (): void => finish(() => reject(abortReason(signal!)));
        const timer = setTimeout(() => finish(() => reject(waitTimeout(id))), Math.max(0, deadline - Date.now()));
        socket.on('job', onJob);
        socket.on('disconnect', onDisconnect);
        signal?.addEventListener('abort', onAbort, { once: true });
        // Listening before subscribing: a job already finished is pushed right after the acknowledgement.
        socket.emitWithAck('subscribe', id).then(
          (ack) => {
            if (isRecord(ack) && ack.success === false) finish(() => reject(errorFromEnvelope(ack, { jobId: id })));
          },
          (err: unknown) =>
            finish(() => reject(new NetworkError({ code: 'NETWORK_ERROR', message: 'socket.io subscribe failed', cause: err }))),
        );
      });
    } finally {
      this.release(connection);
    }
  }

  close(): void {
    const current = this.connection;
    this.connection = undefined;
    void current?.then(
      (c) => c.socket.disconnect(),
      () => undefined,
    );
  }

  private async acquire(): Promise<Connection> {
    this.connection ??= this.connect();
    const current = this.connection;
    try {
      const connection = await current;
      if (!connection.socket.connected) {
        // Released and closed by the last waiter while this one was starting: open a new one.
        if (this.connection === current) this.connection = undefined;
        return this.acquire();
      }
      connection.users += 1;
      return connection;
    } catch (err) {
      if (this.connection === current) this.connection = undefined;
      throw err;
    }
  }

  private release(connection: Connection): void {
    connection.users -= 1;
    if (connection.users === 0) {
      connection.socket.disconnect();
      this.connection = undefined;
    }
  }

  private async connect(): Promise<Connection> {
    const io = await this.context.platform.loadSocketIo();
    if (io === undefined) throw new TypeError('job subscriptions need socket.io-client: npm install socket.io-client');
    const base = this.context.transport.url('/');
    const socket = io(new URL('v2', base).toString(), {
      path: `${base.pathname}socket.io`,
      auth: { api_key: this.context.authorizer.realtimeKey() },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      const onConnect = (): void => {
        socket.off('connect_error', onError);
        resolve();
      };
      const onError = (...args: unknown[]): void => {
        socket.off('connect', onConnect);
        socket.disconnect();
        const err = args[0];
        const data = isRecord(err) ? err.data : undefined;
        // A refusal carries the v2 error body as `data`; anything else is a connection failure.
        reject(
          isRecord(data) && isRecord(data.error)
            ? errorFromEnvelope(data)
            : new NetworkError({ code: 'NETWORK_ERROR', message: 'socket.io connection failed', cause: err }),
        );
      };
      socket.on('connect', onConnect);
      socket.on('connect_error', onError);
    });
    return { socket, users: 0 };
  }
}
