/**
 * One delivery attempt: a POST of the signed body to the endpoint, through the same SSRF policy
 * as URL jobs (shared/net/address-policy.ts). Every attempt resolves the name again and checks
 * every answer, so a name that pointed at a public address yesterday and at 169.254.169.254 today
 * is refused today (DNS rebinding). Redirects are never followed (a 3xx is a failure).
 *
 * Connections are kept alive and reused, but only under the rule of docs/decisions.md "Webhooks":
 * a pool is keyed by the endpoint's origin (scheme, host name as Host and TLS servername, port)
 * AND the set of addresses this attempt's resolution returned and the policy allowed; its
 * connections dial only those addresses. So a reused connection always goes to an address that
 * this very attempt resolved and checked; when the answer changes, the attempt gets another pool
 * (new connections to the new, checked addresses) and the old one is left to idle out.
 *
 * A reused connection can be closed by the receiver just as the request goes out on it (the
 * keep-alive race: its idle timeout fires as we write). Such an attempt, failed on a REUSED
 * connection before any byte of the answer, is sent once more at once on a new connection to the
 * same checked addresses (stale-connection.ts); never after answer bytes, never for a new
 * connection's failure, never for a timeout.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector, Client, Pool, type Dispatcher } from 'undici';
import { checkAddress, type AddressPolicyOptions } from '../net/address-policy.js';
import { AddressDeniedError, guardLookup } from '../net/guarded-connect.js';
import type { SignedHeaders } from './signature.js';
import { lostBeforeAnswer, trackConnection } from './stale-connection.js';

/** Bytes of the response body kept for the delivery log; the rest is not read. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendPolicy {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_CIDRS. */
  allowCidrs: readonly string[];
  /** Injected in tests (a name that resolves to loopback). */
  lookup?: LookupFunction;
}

export interface AttemptOutcome {
  /** HTTP status, absent when no response came (refused, timed out, reset). */
  status?: number;
  latencyMs: number;
  /** Why it failed without a status: 'ssrf:<rule>', 'timeout', or the error's code. */
  error?: string;
  retryAfter?: string;
  bodyExcerpt?: string;
}

/** Pools not used for this long are closed (their sockets have long idled out by then). */
const POOL_IDLE_MS = 60_000;
/** At most this many pools (origin × address set) at once; the least recently used go first. */
const MAX_POOLS = 256;

const systemLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, callback);
};

interface PoolEntry {
  pool: Pool;
  /** The pool's connector (pinned to its checked addresses), for a new connection outside it. */
  connect: buildConnector.connector;
  lastUsed: number;
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  bodyExcerpt: string;
}

/** The senders of one process: keep-alive pools to receivers, keyed as the header comment says. */
export class WebhookSender {
  private readonly pools = new Map<string, PoolEntry>();
  private readonly policy: AddressPolicyOptions;
  private readonly resolve: LookupFunction;
  private lastSweep = 0;

  constructor(private readonly options: SendPolicy) {
    this.policy = { allowCidrs: options.allowCidrs };
    this.resolve = guardLookup(this.policy, options.lookup ?? systemLookup);
  }

  async send(url: string, headers: SignedHeaders, body: string): Promise<AttemptOutcome> {
    const started = performance.now();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const target = new URL(url);
      const addresses = await this.checkedAddresses(target.hostname);
      const entry = this.poolFor(target.origin, addresses);
      const request: Dispatcher.RequestOptions = {
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        signal,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'sha224d-webhooks/1' },
        body,
      };
      let answer: Answer;
      try {
        answer = await post(entry.pool, request);
      } catch (err) {
        // The keep-alive race (header comment): once, on a new connection; the same webhook-id,
        // timestamp and signature, since it is the same attempt (receivers dedupe by webhook-id).
        if (signal.aborted || !lostBeforeAnswer(err)) throw err;
        answer = await this.postOnNewConnection(target.origin, entry.connect, request);
      }
      return {
        status: answer.status,
        latencyMs: Math.round(performance.now() - started),
        bodyExcerpt: answer.bodyExcerpt,
        ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}),
      };
    } catch (err) {
      return { latencyMs: Math.round(performance.now() - started), error: describe(err, signal) };
    }
  }

  /** Closes every pool; requests in flight finish first. */
  async close(): Promise<void> {
    const entries = [...this.pools.values()];
    this.pools.clear();
    await Promise.allSettled(entries.map((e) => e.pool.close()));
  }

  /** Pools open now (for tests of the pool rule). */
  get poolCount(): number {
    return this.pools.size;
  }

  /** Connections open and ready for a request, over every pool (for tests of reuse). */
  get freeConnections(): number {
    let free = 0;
    for (const { pool } of this.pools.values()) free += pool.stats.free;
    return free;
  }

  /** One request on a connection of its own, closed once answered: a failure here is final. */
  private async postOnNewConnection(
    origin: string,
    connect: buildConnector.connector,
    request: Dispatcher.RequestOptions,
  ): Promise<Answer> {
    const client = new Client(origin, { connect, headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs });
    try {
      return await post(client, request);
    } finally {
      void client.close().catch(() => undefined);
    }
  }

  /**
   * This attempt's resolution of `hostname`, every answer allowed by the policy (a name with one
   * denied answer is refused whole: guardLookup). A literal address is checked as it is.
   */
  private checkedAddresses(hostname: string): Promise<LookupAddress[]> {
    const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    const family = isIP(host);
    if (family !== 0) {
      const verdict = checkAddress(host, this.policy);
      return verdict.allowed ? Promise.resolve([{ address: host, family }]) : Promise.reject(new AddressDeniedError(verdict.rule));
    }
    return new Promise((resolve, reject) => {
      this.resolve(host, { all: true }, (err, answer) => {
        if (err) reject(err);
        else resolve(Array.isArray(answer) ? answer : []);
      });
    });
  }

  private poolFor(origin: string, addresses: readonly LookupAddress[]): PoolEntry {
    const now = Date.now();
    this.sweep(now);
    const key = `${origin} ${addresses
      .map((a) => a.address)
      .sort()
      .join(',')}`;
    let entry = this.pools.get(key);
    if (entry === undefined) {
      const connect = pinnedConnector(addresses, this.policy, this.options.timeoutMs);
      entry = {
        pool: new Pool(origin, { connect, headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs }),
        connect,
        lastUsed: now,
      };
      if (this.pools.size >= MAX_POOLS) this.evictOldest();
    } else {
      // Re-inserted: the map's order is least recently used first.
      this.pools.delete(key);
      entry.lastUsed = now;
    }
    this.pools.set(key, entry);
    return entry;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < POOL_IDLE_MS / 2) return;
    this.lastSweep = now;
    for (const [key, entry] of this.pools) {
      if (now - entry.lastUsed < POOL_IDLE_MS) break;
      this.pools.delete(key);
      void entry.pool.close().catch(() => undefined);
    }
  }

  private evictOldest(): void {
    const oldest = this.pools.entries().next().value;
    if (oldest === undefined) return;
    this.pools.delete(oldest[0]);
    void oldest[1].pool.close().catch(() => undefined);
  }
}

/**
 * An undici connector that dials only `addresses` (checked by the attempt that made the pool),
 * whatever the name would resolve to now, with the origin's host name kept for TLS (SNI and the
 * certificate check). The connected socket's remote address is checked once more, so a change to
 * the code above fails closed.
 */
function pinnedConnector(addresses: readonly LookupAddress[], policy: AddressPolicyOptions, timeoutMs: number): buildConnector.connector {
  const first = addresses[0];
  const pinned: LookupFunction = (hostname, options, callback) => {
    if (first === undefined) callback(new AddressDeniedError('invalid'), '');
    else if (options.all === true) callback(null, [...addresses]);
    else callback(null, first.address, first.family);
  };
  const allowed = new Set(addresses.map((a) => canonical(a.address)));
  const connect = buildConnector({ lookup: pinned, timeout: timeoutMs });
  return (target, callback) => {
    connect(target, (...args) => {
      const [err, socket] = args;
      if (err !== null) {
        callback(err, null);
        return;
      }
      const remote = socket.remoteAddress;
      const verdict = remote === undefined ? undefined : checkAddress(remote, policy);
      if (remote === undefined || !allowed.has(canonical(remote)) || verdict?.allowed !== true) {
        socket.destroy();
        callback(new AddressDeniedError(verdict?.allowed === false ? verdict.rule : 'invalid'), null);
        return;
      }
      trackConnection(socket);
      callback(null, socket);
    });
  };
}

/** The request and the kept excerpt of its answer. */
async function post(dispatcher: Dispatcher, request: Dispatcher.RequestOptions): Promise<Answer> {
  const res = await dispatcher.request(request);
  const bodyExcerpt = await readExcerpt(res.body);
  const retryAfter = res.headers['retry-after'];
  return { status: res.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, bodyExcerpt };
}

/** One spelling per address (IPv4-mapped IPv6 as IPv4, IPv6 compressed), so the pinned set and the socket's address compare. */
function canonical(address: string): string {
  try {
    return ipaddr.process(address).toString();
  } catch {
    return address;
  }
}

async function readExcerpt(stream: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } catch {
    // A body that breaks off is still an answer: its status counts.
  } finally {
    // A body read to its end leaves the connection to the pool; one cut short closes it.
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

function describe(err: unknown, signal: AbortSignal): string {
  let cause: unknown = err;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if (cause instanceof AddressDeniedError) return `ssrf:${cause.rule}`;
    cause = cause.cause;
  }
  if (signal.aborted) return 'timeout';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'network-error';
}
