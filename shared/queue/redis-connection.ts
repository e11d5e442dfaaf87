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
 */
import { Redis, type RedisOptions } from 'ioredis';
import { isServiceError, ServiceError } from '../errors.js';
import type { Logger } from '../log.js';

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
}

/** A connection for `role` to `url` (redis://…). Errors are logged (throttled), never thrown as events. */
export function createRedis(url: string, role: RedisRole, options: CreateRedisOptions = {}): Redis {
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) throw new TypeError('REDIS_URL must be a redis:// or rediss:// URL');
  const redis = new Redis(url, {
    ...ROLE_OPTIONS[role],
    retryStrategy: reconnectDelay,
    ...(options.connectionName === undefined ? {} : { connectionName: options.connectionName }),
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeout: options.commandTimeoutMs }),
  });
  trackReadiness(redis);
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
  /LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN/,
];

/** True if `err` says Redis could not be reached (rather than that a command was wrong). */
export function isRedisConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError' || err.name === 'ConnectionClosedError') return true;
  const code = (err as NodeJS.ErrnoException).code;
  const text = `${err.message} ${typeof code === 'string' ? code : ''}`;
  return CONNECTION_ERROR_PATTERNS.some((pattern) => pattern.test(text));
}

export function redisUnavailable(cause?: unknown): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is unavailable', cause });
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
export function waitReady(redis: Redis, budgetMs: number): Promise<void> {
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

const everReady = new WeakSet<Redis>();

/** Remember which connections have been ready once (see waitReady). */
export function trackReadiness(redis: Redis): void {
  if (redis.status === 'ready') everReady.add(redis);
  redis.on('ready', () => everReady.add(redis));
}

function onceReady(redis: Redis, budgetMs: number): Promise<void> {
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
export async function failFast<T>(redis: Redis, operation: () => Promise<T>, budgetMs: number = FAIL_FAST_BUDGET_MS): Promise<T> {
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

/** QUIT, or DISCONNECT if Redis is away; never throws. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
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
