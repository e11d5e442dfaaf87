/**
 * The LimitDecision a limiter call answers with, from the figures of the windows it counted in
 * (docs/limits.md "Headers and errors"; headers.ts turns it into headers and the 429). A refusal
 * reports the window that refused; an acceptance the binding window, or no limit at all (-1).
 */
import { nextUtcMidnightMs, secondsUntil } from './rules.js';
import { NO_LIMIT, type LimitDecision, type LimitWindow } from './types.js';

/** One window's figures after the request. */
export interface Figures {
  window: LimitWindow;
  limit: number;
  remaining: number;
  resetAtUnix: number;
}

/** Accepted with nothing limiting it: -1 figures, reset at the next UTC midnight. */
export function noLimit(at: number): LimitDecision {
  const resetAtUnix = nextUtcMidnightMs(at) / 1000;
  return { allowed: true, window: 'none', limit: NO_LIMIT, remaining: NO_LIMIT, resetAtUnix, retryAfterSeconds: 0 };
}

/** Refused by `figures`' window: retry once it resets (at least a second away). */
export function refuse(reason: 'rate' | 'quota', figures: Figures, at: number): LimitDecision {
  const { window, limit, remaining, resetAtUnix } = figures;
  return { allowed: false, reason, window, limit, remaining, resetAtUnix, retryAfterSeconds: secondsUntil(resetAtUnix, at) };
}

/** Accepted: the binding one of the rate window and the day's quota, either absent when it does not apply. */
export function accept(rate: Figures | undefined, daily: Figures | undefined, dayResetUnix: number): LimitDecision {
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

/** The window with the fewest requests left; on a tie the shorter one (it resets first). */
function pickBinding(rate: Figures | undefined, daily: Figures | undefined): Figures | undefined {
  if (!rate || !daily) return rate ?? daily;
  return daily.remaining < rate.remaining ? daily : rate;
}
