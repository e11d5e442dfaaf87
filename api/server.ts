import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import type { Logger } from '../shared/log.js';
import { httpsUrl } from './middleware/https-only.js';

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
        // Keep-alive connections become idle as their in-flight requests finish: close each then,
        // and tell clients not to reuse them.
        server.on('request', (_req, res: http.ServerResponse) => res.setHeader('Connection', 'close'));
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(force);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

export interface ServeOptions {
  port: number;
  host: string;
  logger: Logger;
  tls?: { cert: Buffer; key: Buffer };
  /** Second listener whose requests are sandbox requests (issue 4 §5). */
  sandboxPort?: number;
  /** Plain-HTTP listener that answers every request with a 308 to the HTTPS URL. */
  redirectPort?: number;
}

export interface Listeners {
  main: RunningServer;
  sandbox?: RunningServer;
  redirect?: RunningServer;
  close(graceMs: number): Promise<void>;
}

/** Start every listener of an API node: main (HTTP or HTTPS), sandbox, HTTP→HTTPS redirect. */
export async function serve(app: RequestListener, options: ServeOptions): Promise<Listeners> {
  const make = (): http.Server => (options.tls ? (https.createServer({ cert: options.tls.cert, key: options.tls.key }, app)) : http.createServer(app));
  const main = await startServer(app, { port: options.port, host: options.host, logger: options.logger, server: make() });
  const sandbox = options.sandboxPort === undefined ? undefined : await startServer(app, { port: options.sandboxPort, host: options.host, logger: options.logger, server: make() });
  let redirect: RunningServer | undefined;
  if (options.tls && options.redirectPort !== undefined) {
    const target = main.port;
    redirect = await startServer(
      (req, res) => {
        const hostname = (req.headers.host ?? options.host).replace(/:\d+$/, '');
        // 308 keeps a POST's method and body (RFC 9110 §15.4.9); the Location says everything.
        res.writeHead(308, { Location: httpsUrl(hostname, req.url ?? '/', target), 'Content-Length': '0' });
        res.end();
      },
      { port: options.redirectPort, host: options.host, logger: options.logger },
    );
  }
  return {
    main,
    sandbox,
    redirect,
    close: async (graceMs) => {
      await Promise.all([main.close(graceMs), sandbox?.close(graceMs), redirect?.close(graceMs)]);
    },
  };
}
