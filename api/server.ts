import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import type { Logger } from '../shared/log.js';

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then close. Idempotent. */
  close(graceMs: number): Promise<void>;
}

export async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function startServer(handler: RequestListener, options: { port: number; host: string; logger: Logger; server?: http.Server }): Promise<RunningServer> {
  const server = options.server ?? http.createServer(handler);
  // Slow-loris bounds; uploads of 1 GiB need a long requestTimeout, the header phase does not.
  server.headersTimeout = 20_000;
  server.requestTimeout = 0;
  server.keepAliveTimeout = 5_000;
  const port = await listen(server, options.port, options.host);
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    close(graceMs) {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
