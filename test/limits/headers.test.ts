import { describe, expect, it } from 'vitest';
import { rateLimitError, rateLimitHeaders } from '../../shared/limits/headers.js';
import type { LimitDecision } from '../../shared/limits/types.js';

const allowed: LimitDecision = {
  allowed: true,
  window: 'second',
  limit: 10,
  remaining: 7,
  resetAtUnix: 1_700_000_001,
  retryAfterSeconds: 0,
};
const rateRefused: LimitDecision = {
  allowed: false,
  reason: 'rate',
  window: 'minute',
  limit: 60,
  remaining: 0,
  resetAtUnix: 1_700_000_040,
  retryAfterSeconds: 13,
};
const quotaRefused: LimitDecision = {
  allowed: false,
  reason: 'quota',
  window: 'day',
  limit: 1000,
  remaining: 0,
  resetAtUnix: 1_700_006_400,
  retryAfterSeconds: 3600,
};

describe('rateLimitHeaders', () => {
  it('v1: limit, remaining and reset of the binding window', () => {
    expect(rateLimitHeaders(allowed, 'v1a')).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '1700000001',
    });
    expect(rateLimitHeaders(allowed, 'v1')).toEqual(rateLimitHeaders(allowed, 'v1b'));
  });

  it('v2 adds X-RateLimit-Retry-After, 0 while allowed', () => {
    expect(rateLimitHeaders(allowed, 'v2')).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '1700000001',
      'X-RateLimit-Retry-After': '0',
    });
  });

  it('a refusal adds Retry-After (and v2 its X-RateLimit-Retry-After)', () => {
    expect(rateLimitHeaders(rateRefused, 'v1b')).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1700000040',
      'Retry-After': '13',
    });
    expect(rateLimitHeaders(quotaRefused, 'v2')).toMatchObject({ 'Retry-After': '3600', 'X-RateLimit-Retry-After': '3600' });
  });

  it('reports no limit as -1', () => {
    const none: LimitDecision = {
      allowed: true,
      window: 'none',
      limit: -1,
      remaining: -1,
      resetAtUnix: 1_700_006_400,
      retryAfterSeconds: 0,
    };
    expect(rateLimitHeaders(none, 'v2')).toMatchObject({ 'X-RateLimit-Limit': '-1', 'X-RateLimit-Remaining': '-1' });
  });
});

describe('rateLimitError', () => {
  it('rate: 429 RATE_LIMIT_EXCEEDED with retry_after, details name the rate limit', () => {
    const err = rateLimitError(rateRefused);
    expect(err.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(err.status).toBe(429);
    expect(err.message).toBe('Too many requests');
    expect(err.retryAfter).toBe(13);
    expect(err.details).toBe('rate limit of 60 requests per minute exceeded');
  });

  it('quota: details name the daily quota and its reset', () => {
    const err = rateLimitError(quotaRefused);
    expect(err.retryAfter).toBe(3600);
    expect(err.details).toBe('daily quota of 1000 requests exceeded; it resets at 00:00 UTC');
  });
});
