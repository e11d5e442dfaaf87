/**
 * From (plan, key type, generation) to the rate window that applies, and the clock arithmetic of
 * windows and UTC days. Pure functions: the limiters take their clock as an option.
 */
import type { KeyType, Plan } from '../store/types.js';
import type { PlanCatalog } from './plans.js';
import type { Generation } from './types.js';

export interface RateRule {
  /** Counter shared by every key of the account: v1a, v1b, or v2 (HTTP and WebSocket). */
  bucket: 'v1a' | 'v1b' | 'v2';
  window: 'second' | 'minute';
  durationSec: 1 | 60;
  limit: number;
}

/** The rate window of a request, or undefined when the plan's rate is unlimited for this key. */
export function rateRule(catalog: PlanCatalog, plan: Plan, keyType: KeyType, generation: Generation): RateRule | undefined {
  const limits = catalog.plans[plan];
  switch (generation) {
    case 'v1a':
      return perSecond('v1a', rateFor(catalog, keyType, limits.v1PerSecond, 'second'));
    case 'v1b': {
      const limit = rateFor(catalog, keyType, limits.v1PerMinute, 'minute');
      return limit === null ? undefined : { bucket: 'v1b', window: 'minute', durationSec: 60, limit };
    }
    case 'v2':
    case 'ws':
      return perSecond('v2', rateFor(catalog, keyType, limits.v2PerSecond, 'second'));
  }
}

function perSecond(bucket: 'v1a' | 'v2', limit: number | null): RateRule | undefined {
  return limit === null ? undefined : { bucket, window: 'second', durationSec: 1, limit };
}

/**
 * Development keys (docs/api.md "Resources": "limited rate, testing") run at `rateFactor` of the plan's
 * rate, at least 1; where the plan's rate is unlimited they get a fixed ceiling instead.
 */
export function rateFor(catalog: PlanCatalog, keyType: KeyType, planRate: number | null, window: 'second' | 'minute'): number | null {
  if (keyType !== 'development') return planRate;
  const dev = catalog.developmentKeys;
  if (planRate === null) return window === 'second' ? dev.perSecondWhenUnlimited : dev.perMinuteWhenUnlimited;
  return Math.max(1, Math.floor(planRate * dev.rateFactor));
}

export function windowIndex(nowMs: number, durationSec: number): number {
  return Math.floor(nowMs / (durationSec * 1000));
}

/** Unix seconds at which window `index` ends. */
export function windowResetUnix(index: number, durationSec: number): number {
  return (index + 1) * durationSec;
}

const DAY_MS = 24 * 3600 * 1000;

/** UTC day key 'YYYY-MM-DD' of the usage counters. */
/** The last day computed: every request asks, and the answer changes once a day. */
let cachedDay = { startMs: 0, endMs: 0, day: '' };

export function utcDayOf(nowMs: number): string {
  if (nowMs >= cachedDay.startMs && nowMs < cachedDay.endMs) return cachedDay.day;
  const startMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const day = new Date(nowMs).toISOString().slice(0, 10);
  cachedDay = { startMs, endMs: startMs + DAY_MS, day };
  return day;
}

export function nextUtcMidnightMs(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

/** Whole seconds from `nowMs` to `resetAtUnix`, at least 1 (a Retry-After of 0 invites a spin). */
export function secondsUntil(resetAtUnix: number, nowMs: number): number {
  return Math.max(1, Math.ceil((resetAtUnix * 1000 - nowMs) / 1000));
}
