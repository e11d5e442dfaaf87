import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_CATALOG } from '../../shared/limits/plans.js';
import { nextUtcMidnightMs, rateRule, secondsUntil, utcDayOf, windowIndex, windowResetUnix } from '../../shared/limits/rules.js';

const limitOf = (...args: Parameters<typeof rateRule>) => rateRule(...args)?.limit ?? null;

describe('rateRule', () => {
  it('reads Set A from the tier table, Set B from the plan table, v2 and ws from the v2 table', () => {
    expect(rateRule(DEFAULT_PLAN_CATALOG, 'pro', 'production', 'v1a')).toEqual({
      bucket: 'v1a',
      window: 'second',
      durationSec: 1,
      limit: 20,
    });
    expect(rateRule(DEFAULT_PLAN_CATALOG, 'pro', 'production', 'v1b')).toEqual({
      bucket: 'v1b',
      window: 'minute',
      durationSec: 60,
      limit: 300,
    });
    expect(rateRule(DEFAULT_PLAN_CATALOG, 'pro', 'production', 'v2')).toEqual({
      bucket: 'v2',
      window: 'second',
      durationSec: 1,
      limit: 200,
    });
    expect(rateRule(DEFAULT_PLAN_CATALOG, 'pro', 'production', 'ws')).toEqual(rateRule(DEFAULT_PLAN_CATALOG, 'pro', 'production', 'v2'));
    expect(rateRule(DEFAULT_PLAN_CATALOG, 'enterprise', 'production', 'v2')).toBeUndefined();
  });

  it('runs development keys at the documented reduced rates (docs/limits.md)', () => {
    const table = (['free', 'basic', 'pro', 'enterprise'] as const).map((plan) => [
      plan,
      limitOf(DEFAULT_PLAN_CATALOG, plan, 'development', 'v1a'),
      limitOf(DEFAULT_PLAN_CATALOG, plan, 'development', 'v1b'),
      limitOf(DEFAULT_PLAN_CATALOG, plan, 'development', 'v2'),
    ]);
    expect(table).toEqual([
      ['free', 1, 2, 2],
      ['basic', 4, 12, 10],
      ['pro', 4, 60, 40],
      ['enterprise', 50, 200, 50],
    ]);
  });

  it('gives read-only and client keys the plan rates', () => {
    expect(limitOf(DEFAULT_PLAN_CATALOG, 'basic', 'client', 'v2')).toBe(50);
    expect(limitOf(DEFAULT_PLAN_CATALOG, 'basic', 'read_only', 'v1b')).toBe(60);
  });
});

describe('clock arithmetic', () => {
  it('aligns windows to the clock', () => {
    const t = Date.UTC(2030, 5, 1, 10, 20, 30, 999);
    expect(windowResetUnix(windowIndex(t, 1), 1)).toBe(Date.UTC(2030, 5, 1, 10, 20, 31) / 1000);
    expect(windowResetUnix(windowIndex(t, 60), 60)).toBe(Date.UTC(2030, 5, 1, 10, 21) / 1000);
  });

  it('takes UTC days and midnights', () => {
    const lastMs = Date.UTC(2030, 11, 31, 23, 59, 59, 999);
    expect(utcDayOf(lastMs)).toBe('2030-12-31');
    expect(utcDayOf(lastMs + 1)).toBe('2031-01-01');
    expect(nextUtcMidnightMs(lastMs)).toBe(Date.UTC(2031, 0, 1));
    expect(nextUtcMidnightMs(Date.UTC(2031, 0, 1))).toBe(Date.UTC(2031, 0, 2));
  });

  it('never advises a Retry-After below 1 second', () => {
    expect(secondsUntil(100, 99_999)).toBe(1);
    expect(secondsUntil(100, 100_000)).toBe(1);
    expect(secondsUntil(100, 40_500)).toBe(60);
  });
});
