/**
 * A TCP proxy on a fixed loopback port in front of a real server, for fault tests. Three modes:
 * - forward: pipe each new connection to the target;
 * - hold: a partition: open connections stop carrying bytes, new ones are accepted and never
 *   answered (only the client's own timeouts end them). They stay stalled when forwarding resumes,
 *   as after a lost NAT entry, so a client must notice and discard them;
 * - closed: every connection is reset and nothing listens, so connecting is refused (a peer that is down).
 */
import net from 'node:net';

export type ProxyMode = 'forward' | 'hold' | 'closed';

export interface TcpProxy {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  mode(): ProxyMode;
  /** Connections accepted (in any mode) since the proxy started. */
  accepted(): number;
  /** Connections now open through (or held by) the proxy. */
  open(): number;
  setMode(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, initial: ProxyMode = 'forward'): Promise<TcpProxy> {
  let current: ProxyMode = initial;
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const track = (socket: net.Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  const server = net.createServer((client) => {
    accepted++;
    track(client);
    if (current !== 'forward') return; // hold: read nothing, answer nothing
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.once('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    upstream.once('close', () => client.destroy());
  });
  const stallAll = (): void => {
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    pairs.clear();
  };
  server.on('error', () => undefined);

  // Port 0 once, then the same port on every restart: clients keep their configured endpoint.
  let port = 0;
  const listen = async (): Promise<void> => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as net.AddressInfo).port;
  };
  const unlisten = (): Promise<void> => new Promise<void>((resolve) => server.close(() => resolve()));
  const dropAll = (): void => {
    for (const socket of sockets) socket.destroy();
  };

  if (initial === 'closed') throw new RangeError('start the proxy listening, then close it: its port is chosen at the first listen');
  await listen();

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    mode: () => current,
    accepted: () => accepted,
    open: () => sockets.size,
    async setMode(mode) {
      const wasListening = current !== 'closed';
      current = mode;
      if (mode === 'hold') stallAll();
      if (mode === 'closed') dropAll();
      if (mode === 'closed' && wasListening) await unlisten();
      if (mode !== 'closed' && !wasListening) await listen();
    },
    async close() {
      dropAll();
      if (current !== 'closed') await unlisten();
      current = 'closed';
    },
  };
}
