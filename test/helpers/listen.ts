/** An Express app or request listener served on a loopback port the kernel picks (port 0). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  close: () => Promise<void>;
}

export async function listenOnLoopback(listener: http.RequestListener): Promise<Listening> {
  const server = http.createServer(listener);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
