/**
 * Ports without races.
 *
 * A server the test starts itself listens on port 0 and reports the port the kernel gave it
 * (`listenOnFreePort`); so do the service's entry points (PORT=0) and Prometheus.
 *
 * Some ports must be chosen before anything listens: a redis-server (port 0 switches its TCP off),
 * SANDBOX_PORT and HTTP_REDIRECT_PORT (the sandbox is recognised by the configured number), and a
 * port that must refuse connections. Probing port 0 and closing the probe hands back a port from
 * the kernel's ephemeral range, which every port-0 listener and every outgoing connection in the
 * parallel suite draws from, so another test can take it in between. `pickUnusedPort`
 * instead picks at random below that range, where the kernel never assigns a port by itself: only
 * another explicit pick (one chance in thousands) can collide, and the process given the port
 * fails loudly if it does (spawned servers exit with EADDRINUSE; startRedisServer checks the
 * process that answers is its own).
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:net';
import net from 'node:net';

/** Listens on 127.0.0.1, port 0, and resolves with the port the kernel gave. */
export async function listenOnFreePort(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return address.port;
}

/** Lowest port the kernel hands out by itself (net.ipv4.ip_local_port_range; Linux's default 32768 elsewhere). */
function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

// Above the registered services a test machine runs (PostgreSQL 5432, Redis 6379, …).
const LOWEST_PICK = 20_000;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A loopback port nothing listens on, drawn at random from below the kernel's ephemeral range;
 * for a process that must be told its port in advance, or a port that must refuse connections.
 */
export async function pickUnusedPort(): Promise<number> {
  const top = ephemeralRangeStart();
  if (top - LOWEST_PICK < 1000) throw new Error(`the ephemeral port range starts at ${top}: too little room below it to pick from`);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST_PICK + Math.floor(Math.random() * (top - LOWEST_PICK));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST_PICK} and ${top}`);
}
