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
 *
 * This file only assembles a limiter from its parts: the decision for one request (consume.ts,
 * answers.ts), the usage read (usage-snapshot.ts), the counters' deadline (call-budget.ts), where
 * accepted requests are counted (accepted-counts.ts) and the periodic flushes (flush-schedule.ts).
 */
import type { RedisClient } from '../redis/client-factory.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/catalogue.js';
import { LIMITS_KEY_BASE } from '../naming.js';
import { AcceptedCounts } from './accepted-counts.js';
import { CallBudgets } from './call-budget.js';
import { consume, consumeSync } from './consume.js';
import type { CounterBackend } from './counters.js';
import { scheduleFlushes } from './flush-schedule.js';
import type { LimiterContext } from './limiter-context.js';
import { createMemoryCounters } from './memory-counters.js';
import type { PlanCatalog } from './plans.js';
import { createRedisCounters } from './redis-counters.js';
import type { RequestLimiter } from './types.js';
import type { UsageSink } from './usage-buffer.js';
import { readUsage } from './usage-snapshot.js';

export type { Generation, LimitDecision, LimitRequest, LimitWindow, RequestLimiter, UsageSnapshot, WindowFigures } from './types.js';
export { NO_LIMIT } from './types.js';
export { DAY_COUNT_FLUSH_MS } from './flush-schedule.js';

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
  redis: RedisClient;
  /** Base of every counter key (default LIMITS_KEY_BASE); tests pass a unique one. */
  keyPrefix?: string;
}

export function createMemoryLimiter(options: LimiterOptions): RequestLimiter {
  return createLimiter(createMemoryCounters(), LIMITS_KEY_BASE, options);
}

export function createRedisLimiter(options: RedisLimiterOptions): RequestLimiter {
  return createLimiter(createRedisCounters(options.redis), options.keyPrefix ?? LIMITS_KEY_BASE, options);
}

function createLimiter(counters: CounterBackend, base: string, options: LimiterOptions): RequestLimiter {
  const { catalog, logger, metrics, flushIntervalMs } = options;
  if (!Number.isInteger(flushIntervalMs) || flushIntervalMs <= 0) {
    throw new RangeError('flushIntervalMs must be a positive integer');
  }
  const now = options.now ?? Date.now;
  const budgets = new CallBudgets(counters, options.operationTimeoutMs ?? 2000);
  const counts = new AcceptedCounts(counters, budgets, {
    store: options.store,
    logger,
    now,
    onFlushFailed: () => metrics?.usageFlushFailures.inc(),
  });
  const stopFlushes = scheduleFlushes(counts, counters, {
    flushIntervalMs,
    dayCountFlushMs: options.dayCountFlushMs,
    now,
    logger,
    metrics,
  });
  const ctx: LimiterContext = { catalog, counters, base, now, budgets, counts, logger };

  let closing: Promise<void> | undefined;
  return {
    consume: (req) => consume(ctx, req),
    consumeSync: (req) => consumeSync(ctx, req),
    usage: (accountId, plan, sandbox, keyType = 'production') => readUsage(ctx, accountId, plan, sandbox, keyType),
    flush: () => counts.flushAll(),
    close() {
      closing ??= (async () => {
        stopFlushes();
        await counts.flushAll();
      })();
      return closing;
    },
  };
}
