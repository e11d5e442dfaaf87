/**
 * The PostgreSQL pool with every wait bounded (docs/decisions.md "Jobs and modes"), handed to
 * Kysely's PostgresDialect:
 * - getting a connection (a new one, or a free one from a full pool) within `connectTimeoutMs`;
 * - each statement cancelled by the server after `statementTimeoutMs`, and abandoned by the client
 *   after `queryTimeoutMs` when the server (or the network to it) cannot answer at all;
 * - a transaction left idle (a stuck process holding locks) ended by the server;
 * - TCP keepalive, so a peer that vanished is noticed on idle connections too;
 * - within an HTTP request, one deadline for all of it: the request's database time
 *   (`requestTimeoutMs`, PG_REQUEST_TIMEOUT_MS) is spent by every connect and statement in turn, and
 *   each is given only what is left, so waiting for a connection and then for a statement never
 *   adds up past it (docs/decisions.md "Jobs and modes").
 * A connection that failed in a way that says it is broken (or may still be busy with an abandoned
 * query) is destroyed on release, never handed out again; such failures, and every failure to
 * connect, become 503 SERVICE_UNAVAILABLE with Retry-After instead of a 500 or a hang.
 */
import pg from 'pg';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { ServiceError } from '../errors.js';
import { currentDatabaseWait, type DatabaseWait } from '../trace.js';
import { validatePgBounds, type PgBounds } from './pg-bounds.js';

/** Retry-After (seconds) of a 503 caused by the database. */
export const STORE_RETRY_AFTER_SECONDS = 5;
/** First keepalive probe on an idle connection after this long. */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/** Socket errors of an unreachable or vanished server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs (PostgreSQL Appendix A) meaning "the database, not the request": class 08 connection
 * exceptions, 53300 too many connections, 57014 statement timeout, 57P01-57P05 shutdown, crash,
 * cannot connect now, idle-session timeout; 25P03 idle-in-transaction timeout.
 */
const UNAVAILABLE_SQLSTATES = new Set(['53300', '57014', '57P01', '57P02', '57P03', '57P05', '25P03']);
/** pg and pg-pool raise these as plain Errors without a code (pg 8.x messages). */
const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /^Connection terminated/i,
  /^Query read timeout/i,
  /not queryable/i,
  /Client was closed/i,
  /connection timeout/i,
];

/** Whether `err` says the database is unreachable, overloaded or too slow (not that the query was wrong). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message));
}

function unavailable(cause: unknown): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', { details: 'the database is unavailable', retryAfter: STORE_RETRY_AFTER_SECONDS, cause });
}

export function createBoundedPgPool(options: { connectionString: string; max: number; bounds: PgBounds; types: pg.CustomTypesConfig }): {
  pool: PostgresPool;
  /** The pg pool underneath (its 'error' events, its counts). */
  raw: pg.Pool;
} {
  const { bounds } = options;
  validatePgBounds(bounds);
  const raw = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    types: options.types,
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    statement_timeout: bounds.statementTimeoutMs,
    query_timeout: bounds.queryTimeoutMs,
    idle_in_transaction_session_timeout: bounds.idleInTransactionTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
  });
  const pool: PostgresPool = {
    async connect() {
      const wait = currentDatabaseWait();
      const left = timeLeft(wait, bounds);
      if (left !== undefined && left <= 0) throw unavailable(new Error('timeout exceeded when trying to connect: no database time left'));
      let client: pg.PoolClient;
      const started = performance.now();
      try {
        client = left === undefined || left >= bounds.connectTimeoutMs ? await raw.connect() : await connectWithin(raw, left);
      } catch (err) {
        throw isDatabaseUnavailable(err) ? unavailable(err) : err;
      } finally {
        spend(wait, started);
      }
      return guardClient(client, bounds);
    },
    end: () => raw.end(),
  };
  return { pool, raw };
}

/**
 * Wraps one checked-out client: after a failure that leaves the connection unusable (or still busy
 * with a query the client gave up on), every further query fails at once and release() destroys it.
 */
function guardClient(client: pg.PoolClient, bounds: PgBounds): PostgresPoolClient {
  let broken: ServiceError | undefined;
  // A connection lost while checked out (reset, server gone) is emitted as 'error' on the client,
  // which pg-pool listens to only while the client is idle: unheard, it would end the process.
  // Heard here, it marks the client broken, so release() destroys it rather than pooling it.
  const onLost = (err: Error): void => {
    broken ??= unavailable(err);
  };
  client.on('error', onLost);
  const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    if (broken) throw broken;
    const wait = currentDatabaseWait();
    const left = timeLeft(wait, bounds);
    // Out of time between two statements: the connection may be inside a transaction the caller
    // cannot finish now, so it is discarded (the server rolls back) rather than handed out again.
    if (left !== undefined && left <= 0) {
      broken = unavailable(new Error('Query read timeout: no database time left'));
      throw broken;
    }
    const values = parameters as unknown[];
    const started = performance.now();
    try {
      const result =
        left === undefined || left >= bounds.queryTimeoutMs
          ? await client.query(sql, values)
          : await client.query(withQueryTimeout(sql, values, left));
      return result as unknown as PostgresQueryResult<R>;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      broken = unavailable(err);
      throw broken;
    } finally {
      spend(wait, started);
    }
  };
  return {
    query: query as PostgresPoolClient['query'],
    release: () => {
      client.removeListener('error', onLost);
      client.release(broken);
    },
  };
}

/** A query config with its own client-side timeout: pg honours `query_timeout` per query (its types leave it out). */
function withQueryTimeout(text: string, values: unknown[], ms: number): pg.QueryConfig {
  const config: pg.QueryConfig & { query_timeout: number } = { text, values, query_timeout: Math.ceil(ms) };
  return config;
}

/** Milliseconds left of the request's database time; undefined outside a request. */
function timeLeft(wait: DatabaseWait | undefined, bounds: PgBounds): number | undefined {
  return wait === undefined ? undefined : bounds.requestTimeoutMs - wait.waitedMs;
}

/** Charges the request for a wait that began at `started` (concurrent waits each count in full: the safe side). */
function spend(wait: DatabaseWait | undefined, started: number): void {
  if (wait !== undefined) wait.waitedMs += performance.now() - started;
}

/**
 * pg-pool's connect, given up after `ms` (less than the pool's own connectionTimeoutMillis). A
 * connection that arrives after that is handed back to the pool, not lost.
 */
async function connectWithin(raw: pg.Pool, ms: number): Promise<pg.PoolClient> {
  const connecting = raw.connect();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), Math.ceil(ms));
  });
  try {
    return await Promise.race([connecting, timeout]);
  } catch (err) {
    connecting.then(
      (client) => client.release(),
      () => undefined,
    );
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
