/**
 * What Redis must be configured with for distributed mode not to lose accepted jobs (README
 * "Running distributed"): `maxmemory-policy noeviction` (any other policy may evict job hashes,
 * idempotency and owner keys under memory pressure; BullMQ's own documentation requires it) and
 * AOF persistence with `appendfsync everysec` or `always` (without it a Redis restart drops every
 * queued job; RDB snapshots alone lose the jobs accepted since the last one).
 *
 * Each distributed process reads these at start and logs a warning naming what is wrong. Managed
 * Redis services often disable CONFIG; then the requirement is logged as unverifiable, not as a fault.
 */
import type { RedisClient } from '../redis/client-factory.js';
import type { Logger } from '../log.js';
import { closeRedis, createRedis, failFast, type RedisTarget } from './redis-connection.js';

/** How long the start-up check waits for Redis to answer. */
const START_CHECK_BUDGET_MS = 5000;

export interface RedisSettings {
  maxmemoryPolicy: string | undefined;
  appendonly: string | undefined;
  appendfsync: string | undefined;
}

export type RedisRequirementCheck = { readable: true; settings: RedisSettings; problems: string[] } | { readable: false; reason: string };

/** What is wrong with `settings` for distributed mode; empty when nothing is. */
export function redisProblems(settings: RedisSettings): string[] {
  const problems: string[] = [];
  if (settings.maxmemoryPolicy !== undefined && settings.maxmemoryPolicy !== 'noeviction') {
    problems.push(`maxmemory-policy is ${settings.maxmemoryPolicy}, not noeviction: under memory pressure Redis may evict queued jobs`);
  }
  if (settings.appendonly !== undefined && settings.appendonly !== 'yes') {
    problems.push('appendonly is off: a Redis restart loses every queued job (set appendonly yes, appendfsync everysec)');
  } else if (settings.appendonly === 'yes' && settings.appendfsync === 'no') {
    problems.push('appendfsync is no: a crash loses the jobs the OS had not yet written (use everysec or always)');
  }
  return problems;
}

/** CONFIG GET one parameter: its value, or undefined when the server does not report it. */
async function configGet(redis: RedisClient, name: string): Promise<string | undefined> {
  const reply = await redis.call('CONFIG', 'GET', name);
  if (!Array.isArray(reply)) return undefined;
  const index = reply.indexOf(name);
  const value: unknown = index >= 0 ? reply[index + 1] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Reads the settings; CONFIG refused (renamed, ACL, a managed service) reads as not readable. */
export async function checkRedisRequirements(redis: RedisClient): Promise<RedisRequirementCheck> {
  let settings: RedisSettings;
  try {
    settings = {
      maxmemoryPolicy: await configGet(redis, 'maxmemory-policy'),
      appendonly: await configGet(redis, 'appendonly'),
      appendfsync: await configGet(redis, 'appendfsync'),
    };
  } catch (err) {
    return { readable: false, reason: err instanceof Error ? err.message : String(err) };
  }
  return { readable: true, settings, problems: redisProblems(settings) };
}

/** Check and log: a warning per deployment fault, a note when CONFIG cannot be read. Never throws. */
export async function logRedisRequirements(redis: RedisClient, logger: Logger): Promise<RedisRequirementCheck> {
  const check = await checkRedisRequirements(redis);
  const required =
    'Redis needs maxmemory-policy noeviction and appendonly yes with appendfsync everysec or always (README "Running distributed")';
  if (!check.readable) {
    logger.info({ reason: check.reason }, `Redis configuration could not be read (CONFIG refused); ${required}`);
  } else if (check.problems.length > 0) {
    logger.warn(
      { redis: check.settings, problems: check.problems },
      `Redis may lose accepted jobs: ${check.problems.join('; ')}. ${required}`,
    );
  }
  return check;
}

/**
 * At a distributed process's start: check REDIS_URL's server on a connection of its own, then close
 * it. Never throws and never delays the start (callers do not await it); an unreachable Redis is
 * reported by the connections that need it.
 */
export async function checkRedisAtStart(target: RedisTarget, logger: Logger): Promise<void> {
  const redis = createRedis(target, 'producer', { connectionName: 'sha224d:config-check' });
  try {
    await failFast(redis, () => redis.ping(), START_CHECK_BUDGET_MS);
    await logRedisRequirements(redis, logger);
  } catch (err) {
    logger.info({ err }, 'Redis configuration not checked: Redis did not answer at start');
  } finally {
    await closeRedis(redis);
  }
}
