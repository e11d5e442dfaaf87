/**
 * When the next attempt of a delivery is due: the Standard Webhooks (Svix) schedule — at once,
 * then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failure — with ±10 % jitter so the
 * retries of one outage do not arrive together, and the receiver's Retry-After honoured (never
 * earlier than it asks, capped at MAX_RETRY_AFTER_MS).
 */

/** A Retry-After longer than this (the default schedule's longest step) is cut to it. */
export const MAX_RETRY_AFTER_MS = 36_000_000;

export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** WEBHOOK_RETRY_SCHEDULE: comma-separated durations (`500ms`, `5s`, `5m`, `2h`), the first normally 0. */
export function parseRetrySchedule(value: string): number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const steps = value.split(',').map((part) => {
    const m = /^\s*(\d+)(ms|s|m|h)?\s*$/.exec(part);
    if (m === null) throw new Error(`WEBHOOK_RETRY_SCHEDULE: "${part.trim()}" is not a duration like 5s, 5m or 2h`);
    return Number(m[1]) * (units[m[2] ?? 'ms'] ?? 1);
  });
  if (steps.length === 0) throw new Error('WEBHOOK_RETRY_SCHEDULE: at least one step');
  return steps;
}

/**
 * Delay before attempt number `attemptsMade + 1` (attempts counted from 1), or undefined when the
 * schedule is exhausted. `retryAfterMs`, from a 429 or 503, replaces the scheduled step when longer.
 */
export function nextDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const step = schedule[attemptsMade];
  if (step === undefined) return undefined;
  const jittered = Math.round(step * (0.9 + 0.2 * random()));
  if (retryAfterMs === undefined) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
