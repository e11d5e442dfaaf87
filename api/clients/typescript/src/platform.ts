/**
 * What differs between runtimes, behind one interface: opening a file path (Node only), the
 * WebSocket implementation, and socket.io-client (an optional peer). The browser build
 * (index.ts) uses only web globals; the Node build (node.ts) adds `node:fs`, `ws` and a lazy
 * import of socket.io-client, so browsers carry no runtime dependency.
 */

/** The part of a WebSocket both the browser's and `ws`'s share, as the session uses it. */
export interface RealtimeSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
  /** Bytes queued but not yet sent. */
  readonly bufferedAmount: number;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
}

/** socket.io-client's `io()` as far as job subscriptions use it. */
export type SocketIoConnect = (url: string, options: Record<string, unknown>) => SocketIoSocket;

export interface SocketIoSocket {
  connected: boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  emitWithAck(event: string, ...args: unknown[]): Promise<unknown>;
  disconnect(): unknown;
}

export interface Platform {
  /** Send Blob sources as Blobs (browsers) rather than as streams (Node, which reports finer progress). */
  preferBlobBodies: boolean;
  /** Opens a file by path (Node); undefined where there is no file system. */
  openPath?: (path: string) => Promise<UploadSource>;
  /** Opens a regular file by path for reads at any offset (Node): resumable uploads read from the server's offset. */
  openRanged?: (path: string) => Promise<RangedSource>;
  /** Opens a WebSocket; rejects with a Sha224dError when the upgrade is refused or fails. */
  connectWebSocket(url: string): Promise<RealtimeSocket>;
  /** socket.io-client's io(), or undefined when it is not installed. */
  loadSocketIo(): Promise<SocketIoConnect | undefined>;
}

export interface UploadSource {
  /** Sent as the multipart file name. */
  filename: string;
  /** Byte count when known (a path, a Blob, bytes, or a size the caller gave). */
  size: number | undefined;
  /** True when open() may be called more than once. */
  replayable: boolean;
  open(): ReadableStream<Uint8Array>;
  /** The source as a Blob, when it is one (or bytes): browsers send that (see BodySource.blob). */
  blob?: () => Blob;
}

/** A source of known size read piece by piece from any offset (resumable uploads). */
export interface RangedSource {
  filename: string;
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
}
