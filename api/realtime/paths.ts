/**
 * Where the realtime interfaces listen. A module of its own, free of `ws` and socket.io, so the
 * node routes upgrades and socket.io's HTTP requests before either package is loaded (index.ts).
 */

/** The /v2/ws endpoint. */
export const WS_PATH = '/v2/ws';
export const SOCKET_IO_PATH = '/socket.io';
export const SOCKET_IO_NAMESPACE = '/v2';

/** Whether a request target is socket.io's: engine.io serves the path prefix `/socket.io/`. */
export function isSocketIoTarget(target: string | undefined): boolean {
  return target !== undefined && target.startsWith(`${SOCKET_IO_PATH}/`);
}
