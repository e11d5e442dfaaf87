/** The retry policy of distributed jobs: its delays, its budget, and the settings that choose it. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';
import { cappedBackoff, cappedBackoffDelay, DEFAULT_RETRY_POLICY, retryBudgetMs } from '../../shared/queue/retry-policy.js';

describe('capped exponential backoff', () => {
  it('doubles from the base and stops at the cap (no jitter at random() = 0)', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 40, 2000].map((made) => cappedBackoffDelay(made, 1000, 15_000, () => 0));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000, 15_000]);
  });

  it('takes at most 20 % off at random, never adds', () => {
    expect(cappedBackoffDelay(3, 1000, 15_000, () => 0.5)).toBe(3600);
    expect(cappedBackoffDelay(3, 1000, 15_000, () => 0.999_999)).toBe(3200);
    expect(cappedBackoffDelay(9, 1000, 15_000, () => 1)).toBe(12_000);
    for (let i = 0; i < 200; i++) {
      const d = cappedBackoffDelay(4, 1000, 15_000);
      expect(d).toBeGreaterThanOrEqual(6400);
      expect(d).toBeLessThanOrEqual(8000);
    }
  });

  it('a zero base retries at once', () => {
    expect(cappedBackoffDelay(5, 0, 15_000)).toBe(0);
  });

  it('the default budget rides out a 60 s outage; the old policy (5 attempts, 1 s base, no cap) gave up after 15 s', () => {
    const { attempts, backoffMs, backoffMaxMs } = DEFAULT_RETRY_POLICY;
    expect(retryBudgetMs(attempts, backoffMs, backoffMaxMs)).toBe(90_000);
    expect(retryBudgetMs(5, 1000, Number.POSITIVE_INFINITY)).toBe(15_000);
    expect(retryBudgetMs(1, 1000, 15_000)).toBe(0);
  });

  it('jobs carry the custom type and their base', () => {
    expect(cappedBackoff(250)).toEqual({ type: 'sha224d-capped-exponential', delay: 250 });
  });
});

describe('retry settings', () => {
  it('defaults', () => {
    const config = loadConfig({});
    expect({
      attempts: config.JOB_ATTEMPTS,
      backoffMs: config.JOB_BACKOFF_MS,
      backoffMaxMs: config.JOB_BACKOFF_MAX_MS,
      maxStalledCount: config.JOB_MAX_STALLED_COUNT,
    }).toEqual({ attempts: 10, backoffMs: 1000, backoffMaxMs: 15_000, maxStalledCount: 3 });
  });

  it('are read from the environment', () => {
    const config = loadConfig({ JOB_ATTEMPTS: '40', JOB_BACKOFF_MS: '200', JOB_BACKOFF_MAX_MS: '1000', JOB_MAX_STALLED_COUNT: '0' });
    expect([config.JOB_ATTEMPTS, config.JOB_BACKOFF_MS, config.JOB_BACKOFF_MAX_MS, config.JOB_MAX_STALLED_COUNT]).toEqual([
      40, 200, 1000, 0,
    ]);
  });

  it.each([
    ['JOB_ATTEMPTS', '0'],
    ['JOB_ATTEMPTS', '2.5'],
    ['JOB_BACKOFF_MS', '-1'],
    ['JOB_BACKOFF_MAX_MS', 'forever'],
    ['JOB_MAX_STALLED_COUNT', '-1'],
  ])('%s=%s is refused with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });

  it('the cap may not be below the base', () => {
    expect(() => loadConfig({ JOB_BACKOFF_MS: '5000', JOB_BACKOFF_MAX_MS: '1000' })).toThrow(
      'Invalid configuration: JOB_BACKOFF_MAX_MS must not be below JOB_BACKOFF_MS',
    );
  });
});
