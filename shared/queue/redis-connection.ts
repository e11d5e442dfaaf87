/**
 * ioredis connections by role. The roles differ in one question: when Redis is away, does a
 * command wait for it or fail now?
 *
 * - producer / limiter (API nodes): fail now. No offline queue, one retry, short connect and
 *   command timeouts, so a request answers 503 SERVICE_UNAVAILABLE within ~2 s instead of
 *   hanging.
 * - worker: wait. BullMQ requires `maxRetriesPerRequest: null` on connections that run blocking
 *   commands; a worker simply resumes when Redis returns.
 * - subscriber: pub/sub only; resubscribes by itself after a reconnect.
 *
 * Every role reconnects with a short capped backoff, so service resumes within a second or so of
 * Redis returning (within 5 s).
 *
 * The one factory of the process's connections: each is opened on the topology the settings name
 * (shared/redis/topology.ts) — one node, Sentinel or Cluster — by shared/redis/client-factory.ts.
 */
import type { RedisOptions } from 'ioredis';
import { isServiceError, ServiceError } from '../errors.js';
import type { Logger } from '../log.js';
import { buildRedisClient, isSentinelClient, type RedisClient } from '../redis/client-factory.js';
import { topologyOf, type RedisTarget } from '../redis/topology.js';

export type { RedisClient } from '../redis/client-factory.js';
export type { RedisTarget } from '../redis/topology.js';

export type RedisRole = 'producer' | 'limiter' | 'worker' | 'subscriber';

/** Reconnect delays grow 100, 200, 400, 800 ms, then stay at the cap. */
export const RECONNECT_CAP_MS = 1000;

export function reconnectDelay(times: number): number {
  return Math.min(50 * 2 ** Math.min(times, 10), RECONNECT_CAP_MS);
}

/** Budget of one producer-side Redis operation before it counts as "Redis unavailable". */
export const FAIL_FAST_BUDGET_MS = 1500;

const ROLE_OPTIONS: { readonly [R in RedisRole]: RedisOptions } = {
  producer: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: FAIL_FAST_BUDGET_MS },
  limiter: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 1000 },
  worker: { maxRetriesPerRequest: null, connectTimeout: 5000 },
  subscriber: { maxRetriesPerRequest: null, connectTimeout: 1000, autoResubscribe: true },
};

export interface CreateRedisOptions {
  logger?: Logger;
  /** CLIENT SETNAME, to tell connections apart in `CLIENT LIST`. */
  connectionName?: string;
  /** Overrides the role's command timeout (the limiter's follows LIMITER_TIMEOUT_MS: shared/infra.ts). */
  commandTimeoutMs?: number;
  /**
   * Connect on the first command instead of now: an API node opens at start only the connections
   * its first request needs (docs/decisions.md "Speed"). Until it is first ready such a connection
   * queues its commands (bounded by the role's command timeout and one retry), as waitReady gives a
   * connection that was never ready its budget; once ready, the role's offline queue applies.
   */
  lazy?: boolean;
}

/**
 * A connection for `role` to `target` (the configured topology, or a redis:// URL). Errors are
 * logged (throttled), never thrown as events.
 */
export function createRedis(target: RedisTarget, role: RedisRole, options: CreateRedisOptions = {}): RedisClient {
  if (typeof target === 'string' && !/^rediss?:\/\//.test(target)) throw new TypeError('REDIS_URL must be a redis:// or rediss:// URL');
  const redis = buildRedisClient(topologyOf(target), {
    options: {
      ...ROLE_OPTIONS[role],
      ...(options.connectionName === undefined ? {} : { connectionName: options.connectionName }),
      ...(options.commandTimeoutMs === undefined ? {} : { commandTimeout: options.commandTimeoutMs }),
      ...(options.lazy === true ? { lazyConnect: true, enableOfflineQueue: true } : {}),
    },
    retryStrategy: reconnectDelay,
    sharded: role === 'subscriber',
  });
  trackReadiness(redis);
  if (options.lazy === true && ROLE_OPTIONS[role].enableOfflineQueue === false) {
    redis.once('ready', () => {
      redis.options.enableOfflineQueue = false;
    });
  }
  let lastLogged = 0;
  redis.on('error', (err: Error) => {
    // A down Redis produces an error per reconnect attempt; one line every 10 s is enough.
    const now = Date.now();
    if (now - lastLogged < 10_000) return;
    lastLogged = now;
    options.logger?.warn({ err, role }, 'redis connection error');
  });
  return redis;
}

const CONNECTION_ERROR_PATTERNS = [
  /connection is closed/i,
  /stream isn't writeable/i,
  /enableofflinequeue/i,
  /command timed out/i,
  /reached the max retries/i,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND/,
  /LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY/,
  // A Cluster whose slot is moving or whose master is failing over; Sentinel with no primary yet.
  /^(MOVED|ASK) \d+ /,
  /too many cluster redirections|failed to refresh slots cache|none of the (cluster )?nodes|all sentinels are unreachable|none of the sentinels/i,
];

/** True if `err` says Redis could not be reached (rather than that a command was wrong). */
export function isRedisConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (['MaxRetriesPerRequestError', 'ConnectionClosedError', 'ClusterAllFailedError'].includes(err.name)) return true;
  const code = (err as NodeJS.ErrnoException).code;
  const text = `${err.message} ${typeof code === 'string' ? code : ''}`;
  return CONNECTION_ERROR_PATTERNS.some((pattern) => pattern.test(text));
}

const UNAVAILABLE_DETAILS = 'the job queue is unavailable';

export function redisUnavailable(cause?: unknown): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', { details: UNAVAILABLE_DETAILS, cause });
}

/** True for the SERVICE_UNAVAILABLE of an unreachable Redis (redisUnavailable), not of a closed or full queue. */
export function isRedisUnavailable(err: unknown): boolean {
  return isServiceError(err) && err.code === 'SERVICE_UNAVAILABLE' && err.details === UNAVAILABLE_DETAILS;
}

/** ServiceErrors pass through; Redis connection failures become SERVICE_UNAVAILABLE; the rest is rethrown. */
export function mapRedisError(err: unknown): unknown {
  if (isServiceError(err)) return err;
  return isRedisConnectionError(err) ? redisUnavailable(err) : err;
}

/**
 * Resolves when `redis` is ready. A connection that was never ready yet (process start) is given
 * up to `budgetMs`; one that lost Redis fails at once, so requests during an outage answer 503
 * immediately.
 */
export function waitReady(redis: RedisClient, budgetMs: number): Promise<void> {
  switch (redis.status) {
    case 'ready':
      return Promise.resolve();
    case 'wait':
    case 'connecting':
    case 'connect':
      if (!everReady.has(redis)) return onceReady(redis, budgetMs);
      return Promise.reject(redisUnavailable());
    default:
      return Promise.reject(redisUnavailable());
  }
}

const everReady = new WeakSet<RedisClient>();

/** Remember which connections have been ready once (see waitReady). */
export function trackReadiness(redis: RedisClient): void {
  if (redis.status === 'ready') everReady.add(redis);
  redis.on('ready', () => everReady.add(redis));
}

function onceReady(redis: RedisClient, budgetMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(redisUnavailable());
    }, budgetMs);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
    if (redis.status === 'wait') redis.connect().catch(() => undefined);
  });
}

/**
 * Runs a producer-side Redis operation: fails fast if Redis is away, bounds the operation to
 * `budgetMs` and maps connection failures to SERVICE_UNAVAILABLE.
 */
export async function failFast<T>(redis: RedisClient, operation: () => Promise<T>, budgetMs: number = FAIL_FAST_BUDGET_MS): Promise<T> {
  const started = Date.now();
  await waitReady(redis, budgetMs);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(redisUnavailable()), Math.max(1, budgetMs - (Date.now() - started)));
  });
  try {
    return await Promise.race([operation(), expired]);
  } catch (err) {
    throw mapRedisError(err);
  } finally {
    clearTimeout(timer);
  }
}

/** QUIT, or DISCONNECT if Redis is away (or behind Sentinel, which rejects QUIT); never throws. */
export async function closeRedis(redis: RedisClient): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready' || isSentinelClient(redis)) {
    redis.disconnect();
    return;
  }
  try {
    await Promise.race([redis.quit(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  } catch {
    // already closing
  }
  redis.disconnect();
}
