/**
 * A loopback TCP proxy that destroys a connection in the middle of a PATCH body: once armed with
 * `cutNextPatchAfter(n)`, the next PATCH request it forwards is cut after exactly `n` bytes of its
 * body (both sockets destroyed), as a client whose network dropped would leave it. Armed with
 * `holdPatchAt`, it forwards `n` bytes of the body of the PATCH at that Upload-Offset and then
 * nothing more, keeping both sockets open (the server is mid-body until something else ends it).
 * Every other byte is forwarded untouched, keep-alive connections included.
 */
import net from 'node:net';

export interface CuttingProxy {
  url: string;
  cutNextPatchAfter(bodyBytes: number): void;
  /** Resolves once `bodyBytes` of the body of the PATCH whose Upload-Offset is `uploadOffset` are forwarded. */
  holdPatchAt(uploadOffset: number, bodyBytes: number): Promise<void>;
  /** Cuts made so far. */
  cuts(): number;
  close(): Promise<void>;
}

export async function startCuttingProxy(target: { host: string; port: number }): Promise<CuttingProxy> {
  interface Arm {
    bodyBytes: number;
    /** Only the PATCH at this Upload-Offset (any PATCH when absent). */
    uploadOffset?: number;
    /** Hold instead of cutting, and say so. */
    held?: () => void;
  }
  let armed: Arm | undefined;
  let cuts = 0;
  const matches = (arm: Arm, headers: string): boolean =>
    arm.uploadOffset === undefined || new RegExp(`\r\nupload-offset:[ \t]*${arm.uploadOffset}\r\n`, 'i').test(`${headers}\r\n`);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    // Per connection: where the armed PATCH's body starts, and how much of it may pass.
    let pending = '';
    let left: number | undefined;
    let current: Arm | undefined;
    client.on('data', (chunk: Buffer) => {
      let data = chunk;
      if (left === undefined && armed !== undefined) {
        pending = (pending + chunk.toString('latin1')).slice(-65536);
        const start = pending.lastIndexOf('PATCH ');
        const end = start < 0 ? -1 : pending.indexOf('\r\n\r\n', start);
        if (end >= 0) {
          // The part of this chunk after the headers is body.
          const bodyInChunk = pending.length - (end + 4);
          const headers = pending.slice(start, end);
          // Looked at once: a PATCH that is not the armed one's passes whole.
          pending = pending.slice(end + 4);
          if (matches(armed, headers)) {
            current = armed;
            left = armed.bodyBytes;
            armed = undefined;
            const headerPart = chunk.length - Math.min(bodyInChunk, chunk.length);
            upstream.write(chunk.subarray(0, headerPart));
            data = chunk.subarray(headerPart);
          }
        }
      }
      if (left === undefined) {
        upstream.write(chunk);
        return;
      }
      if (data.length < left) {
        left -= data.length;
        upstream.write(data);
        return;
      }
      const last = data.subarray(0, left);
      left = 0;
      if (current?.held !== undefined) {
        upstream.write(last);
        client.pause();
        current.held();
        return;
      }
      cuts++;
      upstream.write(last, () => {
        client.destroy();
        upstream.destroy();
      });
      client.pause();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cutNextPatchAfter(bodyBytes) {
      armed = { bodyBytes };
    },
    holdPatchAt(uploadOffset, bodyBytes) {
      return new Promise((resolve) => {
        armed = { bodyBytes, uploadOffset, held: resolve };
      });
    },
    cuts: () => cuts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
