/**
 * Rate limits and daily quotas per account (issue 5 §2–§6), exact across API nodes.
 *
 * Per request: one hit on the generation's fixed, clock-aligned rate window (rate-limiter-flexible),
 * then one exact take from the UTC day's quota. A request refused by either counts in neither, so
 * a window's count and the day's count equal what was accepted. Accepted counts reach the SQL
 * store in batches every `flushIntervalMs` (usage-buffer.ts). Which figures go in the headers:
 * see LimitDecision.window.
 */
import type { Redis } from 'ioredis';
import { isServiceError, ServiceError } from '../errors.js';
import type { Logger } from '../log.js';
import { LIMITS_KEY_BASE, quotaDayRedisKey, rateWindowRedisKey } from '../naming.js';
import type { AccountStore, KeyType, Plan, UsageScope } from '../store/types.js';
import type { CounterBackend } from './counters.js';
import { createMemoryCounters } from './memory-counters.js';
import type { PlanCatalog } from './plans.js';
import { createRedisCounters } from './redis-counters.js';
import {
  nextUtcMidnightMs,
  rateFor,
  rateRule,
  secondsUntil,
  utcDayOf,
  windowIndex,
  windowResetUnix,
  type RateRule,
} from './rules.js';
import { NO_LIMIT, type LimitDecision, type LimitRequest, type LimitWindow, type RequestLimiter, type UsageSnapshot } from './types.js';
import { UsageBuffer } from './usage-buffer.js';

export type { Generation, LimitDecision, LimitRequest, LimitWindow, RequestLimiter, UsageSnapshot, WindowFigures } from './types.js';
export { NO_LIMIT } from './types.js';

export interface LimiterOptions {
  catalog: PlanCatalog;
  store: Pick<AccountStore, 'addUsage' | 'getUsage'>;
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** How often accepted counts are written to the store; a crash loses at most this much. */
  flushIntervalMs: number;
  /** Milliseconds since the epoch; tests inject one to cross UTC midnight. */
  now?: () => number;
  /** Budget of one counter operation before it counts as "unavailable" (default 1000 ms). */
  operationTimeoutMs?: number;
}

export interface RedisLimiterOptions extends LimiterOptions {
  /** Use a connection with `enableOfflineQueue: false`, so a down Redis fails at once. */
  redis: Redis;
  /** Base of every counter key (default LIMITS_KEY_BASE); tests pass a unique one. */
  keyPrefix?: string;
}

export function createMemoryLimiter(options: LimiterOptions): RequestLimiter {
  return createLimiter(createMemoryCounters(), LIMITS_KEY_BASE, options);
}

export function createRedisLimiter(options: RedisLimiterOptions): RequestLimiter {
  return createLimiter(createRedisCounters(options.redis), options.keyPrefix ?? LIMITS_KEY_BASE, options);
}

interface Figures {
  window: LimitWindow;
  limit: number;
  remaining: number;
  resetAtUnix: number;
}

function createLimiter(counters: CounterBackend, base: string, options: LimiterOptions): RequestLimiter {
  const { catalog, logger } = options;
  if (!Number.isInteger(options.flushIntervalMs) || options.flushIntervalMs <= 0) {
    throw new RangeError('flushIntervalMs must be a positive integer');
  }
  const now = options.now ?? Date.now;
  const timeoutMs = options.operationTimeoutMs ?? 1000;
  const buffer = new UsageBuffer(options.store, logger);

  const timer = setInterval(() => {
    counters.forgetBefore(utcDayOf(now()));
    buffer.flush().catch(() => undefined); // logged by the buffer; counts kept for the next flush
  }, options.flushIntervalMs);
  timer.unref();

  /** Any failure to reach the counters is a 503: never hang, never let the request through. */
  async function guard<T>(operation: () => Promise<T>): Promise<T> {
    let timeout: NodeJS.Timeout | undefined;
    try {
      counters.assertReady();
      return await Promise.race([
        operation(),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new Error(`limiter operation took over ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      if (isServiceError(err)) throw err;
      throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'usage limits cannot be checked right now', cause: err });
    } finally {
      clearTimeout(timeout);
    }
  }

  function rateKey(scope: UsageScope, accountId: string, rule: RateRule, index: number): string {
    return rateWindowRedisKey(base, scope, rule.bucket, accountId, index);
  }

  async function consume(req: LimitRequest): Promise<LimitDecision> {
    const at = now();
    const scope: UsageScope = req.sandbox ? 'sandbox' : 'production';
    const day = utcDayOf(at);
    const dayResetUnix = nextUtcMidnightMs(at) / 1000;
    const quota = catalog.plans[req.plan].dailyQuota;
    const rule = rateRule(catalog, req.plan, req.keyType, req.generation);

    let rate: (Figures & { key: string; durationSec: number }) | undefined;
    if (rule) {
      const index = windowIndex(at, rule.durationSec);
      const key = rateKey(scope, req.accountId, rule, index);
      const count = await guard(() => counters.hit(key, rule.durationSec));
      const resetAtUnix = windowResetUnix(index, rule.durationSec);
      if (count > rule.limit) {
        await giveBack(key, rule.durationSec);
        return refuse('rate', { window: rule.window, limit: rule.limit, remaining: 0, resetAtUnix }, at);
      }
      rate = { window: rule.window, limit: rule.limit, remaining: rule.limit - count, resetAtUnix, key, durationSec: rule.durationSec };
    }

    const dayKey = quotaDayRedisKey(base, scope, req.accountId, day);
    let taken: Awaited<ReturnType<CounterBackend['takeQuota']>>;
    try {
      taken = await guard(() => counters.takeQuota(dayKey, day, quota, () => buffer.seed(req.accountId, day, scope)));
    } catch (err) {
      if (rate) await giveBack(rate.key, rate.durationSec);
      throw err;
    }
    if (!taken.allowed) {
      if (rate) await giveBack(rate.key, rate.durationSec);
      return refuse('quota', { window: 'day', limit: quota ?? NO_LIMIT, remaining: 0, resetAtUnix: dayResetUnix }, at);
    }
    buffer.add(req.accountId, day, scope, 1);

    const daily: Figures | undefined =
      quota === null ? undefined : { window: 'day', limit: quota, remaining: quota - taken.used, resetAtUnix: dayResetUnix };
    const binding = pickBinding(rate, daily) ?? { window: 'none', limit: NO_LIMIT, remaining: NO_LIMIT, resetAtUnix: dayResetUnix };
    return {
      allowed: true,
      window: binding.window,
      limit: binding.limit,
      remaining: binding.remaining,
      resetAtUnix: binding.resetAtUnix,
      retryAfterSeconds: 0,
    };
  }

  /** Best effort: a refused request is answered even if its hit cannot be taken back. */
  async function giveBack(key: string, durationSec: number): Promise<void> {
    try {
      await guard(() => counters.unhit(key, durationSec));
    } catch (err) {
      logger?.warn({ err }, 'could not take back a refused request from its rate window');
    }
  }

  function refuse(reason: 'rate' | 'quota', figures: Figures, at: number): LimitDecision {
    return { allowed: false, reason, ...figures, retryAfterSeconds: secondsUntil(figures.resetAtUnix, at) };
  }

  async function usage(accountId: string, plan: Plan, sandbox: boolean, keyType: KeyType = 'production'): Promise<UsageSnapshot> {
    const at = now();
    const scope: UsageScope = sandbox ? 'sandbox' : 'production';
    const day = utcDayOf(at);
    const limits = catalog.plans[plan];
    const dayKey = quotaDayRedisKey(base, scope, accountId, day);
    const used = await guard(() => counters.peekQuota(dayKey, day, () => buffer.seed(accountId, day, scope)));

    const minuteRule = rateRule(catalog, plan, keyType, 'v1b');
    const minuteIndex = windowIndex(at, 60);
    let minuteRemaining: number | null = null;
    if (minuteRule) {
      const inWindow = await guard(() => counters.peek(rateKey(scope, accountId, minuteRule, minuteIndex), 60));
      minuteRemaining = Math.max(0, minuteRule.limit - inWindow);
    }

    return {
      plan,
      tier: limits.v1Tier,
      sandbox,
      dailyQuota: limits.dailyQuota,
      used,
      remaining: limits.dailyQuota === null ? null : Math.max(0, limits.dailyQuota - used),
      resetTime: new Date(nextUtcMidnightMs(at)),
      requestsPerSecond: {
        v1: rateFor(catalog, keyType, limits.v1PerSecond, 'second'),
        v2: rateFor(catalog, keyType, limits.v2PerSecond, 'second'),
      },
      requestsPerMinute: minuteRule?.limit ?? null,
      minuteWindow: {
        limit: minuteRule?.limit ?? null,
        remaining: minuteRemaining,
        resetAtUnix: windowResetUnix(minuteIndex, 60),
      },
      maxFileBytes: { v1: limits.v1MaxFileBytes, v2: limits.v2MaxFileBytes },
      wsConnections: limits.wsConnections,
    };
  }

  let closing: Promise<void> | undefined;
  return {
    consume,
    usage,
    flush: () => buffer.flush(),
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await buffer.flush();
      })();
      return closing;
    },
  };
}

/** The window with the fewest requests left; on a tie the shorter one (it resets first). */
function pickBinding(rate: Figures | undefined, daily: Figures | undefined): Figures | undefined {
  if (!rate || !daily) return rate ?? daily;
  const chosen = daily.remaining < rate.remaining ? daily : rate;
  return { window: chosen.window, limit: chosen.limit, remaining: chosen.remaining, resetAtUnix: chosen.resetAtUnix };
}
