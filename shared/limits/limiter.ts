/**
 * Rate limits and daily quotas per account, exact across API nodes.
 *
 * Per request: one hit on the generation's fixed, clock-aligned rate window (rate-limiter-flexible),
 * then one exact take from the UTC day's quota. A request refused by either counts in neither, so
 * a window's count and the day's count equal what was accepted. A plan without a daily quota has
 * nothing to take: its requests reach the day's count in batches at most a second later
 * (day-count-batch.ts), so they cost no counter operation. Accepted counts reach the SQL store in
 * batches every `flushIntervalMs` (usage-buffer.ts). Which figures go in the headers: see
 * LimitDecision.window.
 */
import type { Redis } from 'ioredis';
import { isServiceError, ServiceError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/catalogue.js';
import { LIMITS_KEY_BASE, quotaDayRedisKey, rateWindowRedisKey } from '../naming.js';
import type { KeyType, Plan, UsageScope } from '../store/types.js';
import type { CounterBackend, QuotaResult } from './counters.js';
import { DayCountBatch, type DayCount } from './day-count-batch.js';
import { createMemoryCounters } from './memory-counters.js';
import type { PlanCatalog } from './plans.js';
import { createRedisCounters } from './redis-counters.js';
import { nextUtcMidnightMs, rateFor, rateRule, secondsUntil, utcDayOf, windowIndex, windowResetUnix, type RateRule } from './rules.js';
import { NO_LIMIT, type LimitDecision, type LimitRequest, type LimitWindow, type RequestLimiter, type UsageSnapshot } from './types.js';
import { UsageBuffer, type UsageSink } from './usage-buffer.js';

export type { Generation, LimitDecision, LimitRequest, LimitWindow, RequestLimiter, UsageSnapshot, WindowFigures } from './types.js';
export { NO_LIMIT } from './types.js';

export interface LimiterOptions {
  catalog: PlanCatalog;
  /** Where accepted counts are flushed (account totals and their per-credential breakdown) and seeded from. */
  store: UsageSink;
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** How often accepted counts are written to the store; a crash loses at most this much. */
  flushIntervalMs: number;
  /** Milliseconds since the epoch; tests inject one to cross UTC midnight. */
  now?: () => number;
  /** Budget of one limiter call's counter operations before they count as "unavailable" (default 2000 ms). */
  operationTimeoutMs?: number;
  /** Where the flush lag and failures are reported (sha224d_usage_flush_*); none when unset. */
  metrics?: Metrics;
  /** How often the batched day counts of plans without a quota reach Redis (default DAY_COUNT_FLUSH_MS, or flushIntervalMs if shorter). */
  dayCountFlushMs?: number;
}

export interface RedisLimiterOptions extends LimiterOptions {
  /** Use a connection with `enableOfflineQueue: false`, so a down Redis fails at once. */
  redis: Redis;
  /** Base of every counter key (default LIMITS_KEY_BASE); tests pass a unique one. */
  keyPrefix?: string;
}

/**
 * How often the day counts of plans without a quota are added to the shared counters: another
 * node's /v1/usage lags this node's requests by at most this long (docs/decisions.md "Plans, rate limits and quotas").
 */
export const DAY_COUNT_FLUSH_MS = 1000;

export function createMemoryLimiter(options: LimiterOptions): RequestLimiter {
  return createLimiter(createMemoryCounters(), LIMITS_KEY_BASE, options);
}

export function createRedisLimiter(options: RedisLimiterOptions): RequestLimiter {
  return createLimiter(createRedisCounters(options.redis), options.keyPrefix ?? LIMITS_KEY_BASE, options);
}

/** The deadline of one limiter call: `guard` runs a counter operation within it; `end` releases it. */
interface Budget {
  guard: <T>(operation: () => Promise<T>) => Promise<T>;
  end: () => void;
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
  const timeoutMs = options.operationTimeoutMs ?? 2000;
  const { metrics } = options;
  const buffer = new UsageBuffer(options.store, logger, { now, onFlushFailed: () => metrics?.usageFlushFailures.inc() });
  const reportLag = (): void => metrics?.usageFlushLag.set(buffer.lagSeconds());
  metrics?.collectors.add(reportLag);
  const batch = new DayCountBatch(addDayCount);

  const timer = setInterval(() => {
    counters.forgetBefore(utcDayOf(now()));
    buffer.flush().catch(() => undefined); // logged by the buffer; counts kept for the next flush
  }, options.flushIntervalMs);
  timer.unref();

  let dayCountsFailing = false;
  const dayTimer = setInterval(
    () => {
      batch.flush().then(
        () => (dayCountsFailing = false),
        (err: unknown) => {
          // Once per outage, not once a second: the counts are kept and the next flush retries.
          if (!dayCountsFailing) logger?.warn({ err }, 'could not add batched day counts; kept for the next flush');
          dayCountsFailing = true;
        },
      );
    },
    options.dayCountFlushMs ?? Math.min(DAY_COUNT_FLUSH_MS, options.flushIntervalMs),
  );
  dayTimer.unref();

  /**
   * Any failure to reach the counters is a 503: never hang, never let the request through. One
   * deadline covers all the counter operations of one limiter call (a request's rate hit and quota
   * take together), and in-memory counters get none: a timer and a promise race per operation cost
   * more than the operation itself.
   */
  function callBudget(): Budget {
    if (!counters.remote) return { guard: (operation) => checked(operation), end: () => undefined };
    let timer: NodeJS.Timeout | undefined;
    let expired: Promise<never> | undefined;
    return {
      guard: (operation) => {
        expired ??= new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`limiter call took over ${timeoutMs} ms`)), timeoutMs);
        });
        const deadline = expired;
        return checked(() => Promise.race([operation(), deadline]));
      },
      end: () => clearTimeout(timer),
    };
  }

  async function checked<T>(operation: () => Promise<T>): Promise<T> {
    try {
      counters.assertReady();
      return await operation();
    } catch (err) {
      throw unavailable(err);
    }
  }

  /** Without a counter operation to fail, a backend known to be down still answers 503, as it would with one. */
  function assertReachable(): void {
    try {
      counters.assertReady();
    } catch (err) {
      throw unavailable(err);
    }
  }

  function unavailable(err: unknown): Error {
    if (isServiceError(err)) return err;
    return new ServiceError('SERVICE_UNAVAILABLE', { details: 'usage limits cannot be checked right now', cause: err });
  }

  /**
   * A missing day counter starts from the store's figure plus this node's counts not yet in the
   * store, less this node's counts still in the batch: those reach the counter when it flushes.
   */
  function daySeed(dayKey: string, accountId: string, day: string, scope: UsageScope): () => Promise<number> {
    return () => buffer.seed(accountId, day, scope, () => batch.unapplied(dayKey));
  }

  async function addDayCount(entry: DayCount): Promise<void> {
    const budget = callBudget();
    try {
      const seed = daySeed(entry.key, entry.accountId, entry.day, entry.scope);
      await budget.guard(() => counters.addToDay(entry.key, entry.day, entry.count, seed));
    } finally {
      budget.end();
    }
  }

  function rateKey(scope: UsageScope, accountId: string, rule: RateRule, index: number): string {
    return rateWindowRedisKey(base, scope, rule.bucket, accountId, index);
  }

  /**
   * The decision for a request that needs no counter operation (no rate rule and no daily quota
   * for its plan and key type): the day's count is batched, so nothing is awaited. Undefined when
   * the request needs the counters; then `consume` decides.
   */
  function consumeSync(req: LimitRequest): LimitDecision | undefined {
    const takesQuota = catalog.plans[req.plan].dailyQuota !== null && req.outsideQuota !== true;
    if (takesQuota || rateRule(catalog, req.plan, req.keyType, req.generation)) return undefined;
    const at = now();
    if (req.outsideQuota === true) {
      assertReachable();
      return noLimit(at);
    }
    const scope: UsageScope = req.sandbox ? 'sandbox' : 'production';
    const day = utcDayOf(at);
    assertReachable();
    batch.add(quotaDayRedisKey(base, scope, req.accountId, day), req.accountId, day, scope);
    countAccepted(req, day, scope);
    return noLimit(at);
  }

  function noLimit(at: number): LimitDecision {
    const resetAtUnix = nextUtcMidnightMs(at) / 1000;
    return { allowed: true, window: 'none', limit: NO_LIMIT, remaining: NO_LIMIT, resetAtUnix, retryAfterSeconds: 0 };
  }

  function countAccepted(req: LimitRequest, day: string, scope: UsageScope): void {
    buffer.add(
      req.accountId,
      day,
      scope,
      1,
      req.credential === undefined ? undefined : { credential: req.credential, generation: req.generation },
    );
  }

  async function consume(req: LimitRequest): Promise<LimitDecision> {
    const decided = consumeSync(req);
    if (decided !== undefined) return decided;
    const budget = callBudget();
    try {
      return await consumeWithin(budget, req);
    } finally {
      budget.end();
    }
  }

  async function consumeWithin({ guard }: Budget, req: LimitRequest): Promise<LimitDecision> {
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
    let daily: Figures | undefined;
    if (req.outsideQuota === true) {
      // Reading usage: neither refused by the day's quota nor counted in it (LimitRequest.outsideQuota).
    } else if (quota === null) {
      assertReachable();
      batch.add(dayKey, req.accountId, day, scope);
    } else {
      // The plan gained its quota today: counts batched before must be in the day's count first.
      if (batch.has(dayKey)) await batch.flush().catch(() => undefined);
      let taken: Awaited<ReturnType<CounterBackend['takeQuota']>>;
      let take: Promise<QuotaResult> | undefined;
      try {
        taken = await guard(() => (take = counters.takeQuota(dayKey, day, quota, daySeed(dayKey, req.accountId, day, scope))));
      } catch (err) {
        // Answered 503 without a decision: a take that lands after the deadline must not count.
        if (take) giveBackIfTaken(take, dayKey, day);
        if (rate) await giveBack(rate.key, rate.durationSec);
        throw err;
      }
      if (!taken.allowed) {
        if (rate) await giveBack(rate.key, rate.durationSec);
        return refuse('quota', { window: 'day', limit: quota, remaining: 0, resetAtUnix: dayResetUnix }, at);
      }
      daily = { window: 'day', limit: quota, remaining: quota - taken.used, resetAtUnix: dayResetUnix };
    }
    if (req.outsideQuota !== true) countAccepted(req, day, scope);

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

  /**
   * Best effort: a refused request is answered even if its hit cannot be taken back. It has a budget
   * of its own, so a quota take that used up the request's deadline still gets its rate hit returned.
   */
  async function giveBack(key: string, durationSec: number): Promise<void> {
    const budget = callBudget();
    try {
      await budget.guard(() => counters.unhit(key, durationSec));
    } catch (err) {
      logger?.warn({ err }, 'could not take back a refused request from its rate window');
    } finally {
      budget.end();
    }
  }

  /**
   * A request answered 503 because its quota take outran the deadline is not charged for it: if
   * the take still lands, one unit is given back (docs/limits.md "Headers and errors").
   */
  function giveBackIfTaken(take: Promise<QuotaResult>, dayKey: string, day: string): void {
    take
      .then((late) => (late.allowed ? counters.giveBackQuota(dayKey, day) : undefined))
      .catch((err: unknown) => logger?.warn({ err }, 'a quota take that outran its deadline could not be given back'));
  }

  function refuse(reason: 'rate' | 'quota', figures: Figures, at: number): LimitDecision {
    return { allowed: false, reason, ...figures, retryAfterSeconds: secondsUntil(figures.resetAtUnix, at) };
  }

  async function usage(accountId: string, plan: Plan, sandbox: boolean, keyType: KeyType = 'production'): Promise<UsageSnapshot> {
    const budget = callBudget();
    try {
      return await usageWithin(budget, accountId, plan, sandbox, keyType);
    } finally {
      budget.end();
    }
  }

  async function usageWithin({ guard }: Budget, accountId: string, plan: Plan, sandbox: boolean, keyType: KeyType): Promise<UsageSnapshot> {
    const at = now();
    const scope: UsageScope = sandbox ? 'sandbox' : 'production';
    const day = utcDayOf(at);
    const limits = catalog.plans[plan];
    const dayKey = quotaDayRedisKey(base, scope, accountId, day);
    // No flush runs during the section, so each of this node's batched counts is in the counter or
    // in `unapplied`, never in both: exact for this node, other nodes' counts up to DAY_COUNT_FLUSH_MS late.
    const used = await batch.exclusive(
      async () => (await guard(() => counters.peekQuota(dayKey, day, daySeed(dayKey, accountId, day, scope)))) + batch.unapplied(dayKey),
    );

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

  /**
   * Both flushes, whatever the other's outcome; the store's failure is the one reported first. One
   * after the other: a day counter seeded while the store commits a batch could count it twice.
   */
  async function flushAll(): Promise<void> {
    const dayCounts = await batch.flush().then(
      () => undefined,
      (err: unknown) => ({ err }),
    );
    await buffer.flush();
    if (dayCounts) throw dayCounts.err;
  }

  let closing: Promise<void> | undefined;
  return {
    consume,
    consumeSync,
    usage,
    flush: flushAll,
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        clearInterval(dayTimer);
        metrics?.collectors.delete(reportLag);
        await flushAll();
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
