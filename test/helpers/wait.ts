/**
 * Time in tests. Waiting for something to happen is a bounded poll for it (`waitFor`), never a
 * fixed sleep: on a loaded 2-core machine a guessed delay is either too short (flaky) or wasted.
 * Time that is itself the input — a client that stalls, an outage that lasts, a pacing interval —
 * is `stallFor`, and a window in which something must NOT happen is `holdsFor`.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up after this long; generous, since the suite shares 2 cores. Default 10 s. */
  timeoutMs?: number;
  /** Pause between checks. Default 20 ms. */
  intervalMs?: number;
  /** Named in the timeout error. */
  what?: string;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with the first truthy value `condition` returns, checking at once and then every
 * `intervalMs`; rejects once `timeoutMs` has passed without one. An error thrown by `condition`
 * fails the wait at once (a condition that is "not yet" returns a falsy value).
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitOptions = {}): Promise<Truthy<T>> {
  const { timeoutMs = 10_000, intervalMs = 20, what = 'the condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(intervalMs);
  }
}

/**
 * Checks `condition` throughout a window of `forMs` and fails at the first check where it does
 * not hold: how a test says "no second event arrives". The window is the test's input — absence
 * can only be observed for a while.
 */
export async function holdsFor(
  condition: () => boolean | Promise<boolean>,
  options: { forMs: number; intervalMs?: number; what?: string },
): Promise<void> {
  const { forMs, intervalMs = 20, what = 'the condition' } = options;
  const started = Date.now();
  const end = started + forMs;
  for (;;) {
    if (!(await condition())) throw new Error(`${what} stopped holding after ${Date.now() - started} ms (watched for ${forMs} ms)`);
    if (Date.now() >= end) return;
    await delay(Math.min(intervalMs, Math.max(0, end - Date.now())));
  }
}

/** A deliberate pause that is the test's input (a slow client, an outage that lasts, pacing), never a wait for an event. */
export function stallFor(ms: number): Promise<void> {
  return delay(ms);
}
