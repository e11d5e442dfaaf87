/**
 * The Node platform (see platform.ts): files by path through `node:fs`, WebSockets through the
 * optional peer `ws` (Node 20 has no global WebSocket, and `ws` reports why an upgrade was refused),
 * socket.io-client when installed.
 */
import { open, stat } from 'node:fs/promises';
import type * as wsTypes from 'ws';
import path from 'node:path';
import { errorFromResponse, NetworkError } from './errors.js';
import type { Platform, RangedSource, RealtimeSocket, SocketIoConnect } from './platform.js';
import { adaptWebSocket, openWebSocket } from './platform-web.js';
import { PIECE_BYTES, type UploadSource } from './upload/source.js';

async function openPath(file: string): Promise<UploadSource> {
  const info = await stat(file);
  // A regular file can be read again from the start; a pipe or device (e.g. /dev/stdin) only once.
  const regular = info.isFile();
  let opened = false;
  return {
    filename: path.basename(file),
    size: regular ? info.size : undefined,
    replayable: regular,
    open() {
      if (!regular && opened) throw new Error(`${file} is not a regular file and can be read only once`);
      opened = true;
      return fileStream(file);
    },
  };
}

/** Each read opens the file anew, so nothing stays open between the pieces of a resumable upload. */
async function openRanged(file: string): Promise<RangedSource> {
  const info = await stat(file);
  if (!info.isFile()) throw new TypeError(`${file} is not a regular file: a resumable upload reads it from any offset`);
  return {
    filename: path.basename(file),
    size: info.size,
    async read(start, end) {
      const handle = await open(file, 'r');
      try {
        const buffer = new Uint8Array(end - start);
        let filled = 0;
        while (filled < buffer.length) {
          const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
          if (bytesRead === 0) throw new Error(`${file} shrank while it was uploaded`);
          filled += bytesRead;
        }
        return buffer;
      } finally {
        await handle.close();
      }
    },
  };
}

function fileStream(file: string): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async start() {
        handle = await open(file, 'r');
      },
      async pull(controller) {
        const buffer = new Uint8Array(PIECE_BYTES);
        const { bytesRead } = await handle!.read(buffer, 0, buffer.byteLength, null);
        if (bytesRead === 0) {
          await handle!.close();
          controller.close();
          return;
        }
        controller.enqueue(bytesRead === buffer.byteLength ? buffer : buffer.subarray(0, bytesRead));
      },
      async cancel() {
        await handle?.close();
      },
    },
    { highWaterMark: 0 },
  );
}

type WsModule = typeof wsTypes;

async function loadWs(): Promise<WsModule | undefined> {
  try {
    return await import('ws');
  } catch {
    return undefined;
  }
}

/** With `ws`, a refused upgrade becomes the service's typed error (its HTTP status and v2 body). */
function openWithWs(ws: WsModule, url: string): Promise<RealtimeSocket> {
  return new Promise((resolve, reject) => {
    const socket = new ws.WebSocket(url, { perMessageDeflate: false });
    socket.once('open', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve(adaptWebSocket(socket as unknown as WebSocket));
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not the service's JSON; classed by status
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
        reject(errorFromResponse(response.statusCode ?? 0, headers, body));
        socket.terminate();
      });
    });
    socket.once('error', (err) =>
      reject(new NetworkError({ code: 'NETWORK_ERROR', message: `WebSocket connection failed: ${err.message}`, cause: err })),
    );
  });
}

export const nodePlatform: Platform = {
  preferBlobBodies: false,
  openPath,
  openRanged,
  async connectWebSocket(url) {
    const ws = await loadWs();
    if (ws !== undefined) return openWithWs(ws, url);
    const Global = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
    if (Global === undefined) throw new TypeError('WebSocket sessions on Node 20 need the ws package: npm install ws');
    return openWebSocket(Global, url);
  },
  async loadSocketIo() {
    try {
      const module = await import('socket.io-client');
      const connect: SocketIoConnect = module.io;
      return connect;
    } catch {
      return undefined;
    }
  },
};
