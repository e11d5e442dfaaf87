/**
 * The limiter's background work, and its end: accepted counts to the store every
 * `flushIntervalMs` (a crash loses at most that much), batched day counts to the shared counters
 * every DAY_COUNT_FLUSH_MS, past days' in-memory counters dropped, and the flush lag reported to the
 * metrics (docs/decisions.md "Plans, rate limits and quotas"; the metrics in docs/operating.md).
 */
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/catalogue.js';
import type { AcceptedCounts } from './accepted-counts.js';
import type { CounterBackend } from './counters.js';
import { utcDayOf } from './rules.js';

/**
 * How often the day counts of plans without a quota are added to the shared counters: another
 * node's /v1/usage lags this node's requests by at most this long (docs/decisions.md "Plans, rate limits and quotas").
 */
export const DAY_COUNT_FLUSH_MS = 1000;

export interface FlushScheduleOptions {
  flushIntervalMs: number;
  /** Default DAY_COUNT_FLUSH_MS, or flushIntervalMs if shorter. */
  dayCountFlushMs?: number;
  now: () => number;
  logger?: Pick<Logger, 'warn'>;
  metrics?: Metrics;
}

/** Start the periodic flushes; the function returned stops them (it flushes nothing itself). */
export function scheduleFlushes(
  counts: AcceptedCounts,
  counters: Pick<CounterBackend, 'forgetBefore'>,
  options: FlushScheduleOptions,
): () => void {
  const { now, logger, metrics } = options;
  const reportLag = (): void => metrics?.usageFlushLag.set(counts.lagSeconds());
  metrics?.collectors.add(reportLag);

  const timer = setInterval(() => {
    counters.forgetBefore(utcDayOf(now()));
    counts.flushToStore().catch(() => undefined); // logged by the buffer; counts kept for the next flush
  }, options.flushIntervalMs);
  timer.unref();

  let dayCountsFailing = false;
  const dayTimer = setInterval(
    () => {
      counts.flushDayCounts().then(
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

  return () => {
    clearInterval(timer);
    clearInterval(dayTimer);
    metrics?.collectors.delete(reportLag);
  };
}
