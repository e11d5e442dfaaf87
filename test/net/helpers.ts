import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, Socket as NetSocket, type LookupFunction, type Socket } from 'node:net';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ServiceError } from '../../shared/errors.js';

/**
 * Test plumbing for shared/net. Two safety nets keep these tests from ever sending a packet
 * anywhere but this machine's loopback, even if the code under test is broken:
 *
 *  - every server here listens on a loopback address only;
 *  - a tripwire wraps `net.Socket.prototype.connect` for the test's lifetime: it sees every client
 *    socket this process dials, records the address, and destroys the socket *before* the dial if
 *    the address is not loopback (on the socket's 'lookup' event for names — net.js rechecks
 *    `connecting` after emitting it — and before net's own nextTick dial for literal IPs). Tests
 *    assert that the tripwire never fired, and that refused URLs dialed nothing at all. (The
 *    `net.client.socket` diagnostics channel is no help here: Node 24 publishes on it from inside
 *    `Socket#connect`, after the address is already taken.)
 */

/** 127/8, ::1, or IPv4-mapped 127/8: the only places a client socket here may connect to. */
function isLoopback(address: string): boolean {
  return isIP(address) !== 0 && ipaddr.process(address).range() === 'loopback';
}

export interface Tripwire {
  /** Every address a client socket was about to dial (after DNS for names). */
  readonly dials: string[];
  /** Non-loopback addresses the tripwire stopped. Must stay empty. */
  readonly blocked: string[];
  reset(): void;
  dispose(): void;
}

export function installTripwire(): Tripwire {
  const dials: string[] = [];
  const blocked: string[] = [];
  const guard = (address: string): boolean => {
    dials.push(address);
    if (isLoopback(address)) return true;
    blocked.push(address);
    return false;
  };
  const refuse = (socket: Socket): void => {
    socket.destroy(new Error('tripwire: refused to dial a non-loopback address'));
  };
  type Connect = (this: Socket, ...args: unknown[]) => Socket;
  const prototype = NetSocket.prototype as unknown as { connect: Connect };
  const original = prototype.connect;
  prototype.connect = function connectThroughTripwire(this: Socket, ...args: unknown[]): Socket {
    // net.connect hands Socket#connect its normalised [options, callback] pair.
    const first = args[0];
    const opts = (Array.isArray(first) ? first[0] : first) as { host?: unknown; path?: unknown } | undefined;
    if (typeof opts?.path !== 'string') {
      const host = typeof opts?.host === 'string' ? opts.host : '';
      if (isIP(host) !== 0) {
        // Scheduled before net's own nextTick dial, which skips a socket no longer connecting.
        if (!guard(host)) process.nextTick(() => refuse(this));
      } else {
        this.on('lookup', (err: Error | null, address: string | undefined) => {
          if (err === null && address !== undefined && !guard(address)) refuse(this);
        });
      }
    }
    return original.apply(this, args);
  };
  return {
    dials,
    blocked,
    reset() {
      dials.length = 0;
      blocked.length = 0;
    },
    dispose() {
      prototype.connect = original;
    },
  };
}

export interface TestServer {
  readonly host: string;
  readonly port: number;
  /** Request paths received, in order. */
  readonly requests: string[];
  /** Responses whose connection closed before the server finished writing. */
  readonly abortedResponses: string[];
  origin(): string;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export async function startServer(host: string, handler: Handler): Promise<TestServer> {
  const requests: string[] = [];
  const abortedResponses: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.on('close', () => {
      if (!res.writableFinished) abortedResponses.push(req.url ?? '');
    });
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const bracketed = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port: address.port,
    requests,
    abortedResponses,
    origin: () => `http://${bracketed}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver answering from a fixed table and counting its calls; unknown names get ENOTFOUND. */
export function fakeLookup(table: Record<string, string | string[]>): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname, options, callback) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) {
      const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, '');
      return;
    }
    const all: LookupAddress[] = (Array.isArray(entry) ? entry : [entry]).map((address) => ({
      address,
      family: isIP(address),
    }));
    if (options.all === true) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  }) as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

/** Await a rejection and check it is a ServiceError with this code and the catalog message. */
export async function expectServiceError(promise: Promise<unknown>, code: ServiceError['code'], message?: string): Promise<ServiceError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ServiceError);
  const err = outcome as ServiceError;
  expect(err.code).toBe(code);
  if (message !== undefined) expect(err.message).toBe(message);
  return err;
}

/** The bytes every `/ok` serves: big enough to span many chunks, fixed across runs. */
export const BODY = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 2654435761) >>> 24));

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/**
 * One handler for every test server:
 *   /ok                    BODY with Content-Length       /empty          200, no body
 *   /chunked               BODY chunked, no length        /status/N       status N
 *   /to?u=URL&s=302        redirect to URL                /nolocation     302 without Location
 *   /chain/N               N redirects, then BODY         /declared/N     Content-Length N, N bytes
 *   /stream                endless chunked body           /hang           never answers
 *   /trickle               headers, then one byte, then nothing
 */
export const routes: Handler = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const parts = url.pathname.split('/').filter(Boolean);
  const n = Number(parts[1]);
  switch (parts[0]) {
    case 'ok':
      res.writeHead(200, { 'content-length': BODY.length }).end(BODY);
      return;
    case 'empty':
      res.writeHead(200, { 'content-length': 0 }).end();
      return;
    case 'chunked':
      res.writeHead(200);
      for (let i = 0; i < BODY.length; i += 10_000) res.write(BODY.subarray(i, i + 10_000));
      res.end();
      return;
    case 'status':
      res.writeHead(n, { 'content-length': 2 }).end('no');
      return;
    case 'to':
      res.writeHead(Number(url.searchParams.get('s') ?? 302), { location: url.searchParams.get('u') ?? '' }).end();
      return;
    case 'nolocation':
      res.writeHead(302).end();
      return;
    case 'chain':
      if (n > 0) res.writeHead(302, { location: `/chain/${n - 1}` }).end();
      else res.writeHead(200, { 'content-length': BODY.length }).end(BODY);
      return;
    case 'declared':
      res.writeHead(200, { 'content-length': n }).end(Buffer.alloc(n, 0x62));
      return;
    case 'stream': {
      res.writeHead(200);
      const pump = (): void => {
        while (!res.destroyed && res.write(CHUNK));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    case 'hang':
      return;
    case 'trickle':
      res.writeHead(200, { 'content-length': 10 });
      res.write('x');
      return;
    default:
      res.writeHead(404).end();
  }
};

export interface Fixture {
  /** 127.0.0.1: the one address allowLoopback admits. */
  origin: TestServer;
  /** 127.0.0.2: loopback, but never admitted. */
  other: TestServer;
  /** ::1: loopback, never admitted; undefined where the host has no IPv6 loopback. */
  v6: TestServer | undefined;
  /** Every request any of the three received. */
  requests(): string[];
  reset(): void;
  close(): Promise<void>;
}

export async function startFixture(): Promise<Fixture> {
  const origin = await startServer('127.0.0.1', routes);
  const other = await startServer('127.0.0.2', routes);
  const v6 = await startServer('::1', routes).catch(() => undefined);
  const servers = [origin, other, ...(v6 ? [v6] : [])];
  return {
    origin,
    other,
    v6,
    requests: () => servers.flatMap((s) => s.requests.map((r) => `${s.host} ${r}`)),
    reset: () => {
      for (const s of servers) {
        s.requests.length = 0;
        s.abortedResponses.length = 0;
      }
    },
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

export interface NetFixture {
  fx: Fixture;
  tripwire: Tripwire;
}

/**
 * The per-file lifecycle of the servers and the tripwire: started once, reset after each test,
 * and every test fails if anything tried to dial beyond loopback.
 */
export function useNetFixture(): NetFixture {
  const net = {} as NetFixture;
  beforeAll(async () => {
    net.tripwire = installTripwire();
    net.fx = await startFixture();
  });
  afterEach(() => {
    const blocked = [...net.tripwire.blocked];
    net.tripwire.reset();
    net.fx.reset();
    expect(blocked).toEqual([]);
  });
  afterAll(async () => {
    net.tripwire.dispose();
    await net.fx.close();
  });
  return net;
}
