/** The platform of browsers, web workers and any runtime with a global WebSocket (see platform.ts). */
import { NetworkError } from './errors.js';
import type { Platform, RealtimeSocket } from './platform.js';

/** Adapts a WHATWG WebSocket (the browser's, or `ws`'s, which implements the same interface). */
export function adaptWebSocket(socket: WebSocket): RealtimeSocket {
  const decoder = new TextDecoder();
  return {
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    onMessage(listener) {
      socket.addEventListener('message', (event: MessageEvent<unknown>) => {
        const { data } = event;
        if (typeof data === 'string') listener(data);
        else if (data instanceof ArrayBuffer) listener(decoder.decode(data));
        else if (ArrayBuffer.isView(data)) listener(decoder.decode(data));
      });
    },
    onClose(listener) {
      socket.addEventListener('close', (event: CloseEvent) => listener(event.code, event.reason));
    },
  };
}

/**
 * Resolves once open. A browser does not reveal why an upgrade was refused (no status, no body),
 * so a refusal is a NetworkError here; the Node platform reports the service's error instead.
 */
export function openWebSocket(Impl: typeof WebSocket, url: string): Promise<RealtimeSocket> {
  return new Promise((resolve, reject) => {
    const socket = new Impl(url);
    socket.binaryType = 'arraybuffer';
    const onOpen = (): void => {
      socket.removeEventListener('close', onFail);
      resolve(adaptWebSocket(socket));
    };
    const onFail = (event: CloseEvent): void => {
      socket.removeEventListener('open', onOpen);
      reject(new NetworkError({ code: 'NETWORK_ERROR', message: `WebSocket connection failed (close code ${event.code})` }));
    };
    socket.addEventListener('open', onOpen, { once: true });
    socket.addEventListener('close', onFail, { once: true });
  });
}

export function webPlatform(socketIo?: Platform['loadSocketIo']): Platform {
  return {
    preferBlobBodies: true,
    connectWebSocket(url) {
      const Impl = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
      if (Impl === undefined) return Promise.reject(new TypeError('this runtime has no WebSocket; use the Node build with the ws package'));
      return openWebSocket(Impl, url);
    },
    loadSocketIo: socketIo ?? (() => Promise.resolve(undefined)),
  };
}
