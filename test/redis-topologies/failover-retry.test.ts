/** A job add that meets a failover is tried again within a bound (shared/queue/failover-retry.ts). */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { retryThroughFailover } from '../../shared/queue/failover-retry.js';
import { isRedisConnectionError, isRedisUnavailable, redisUnavailable } from '../../shared/queue/redis-connection.js';

describe('retryThroughFailover', () => {
  it('tries again while Redis is unavailable and answers with the first success', async () => {
    let calls = 0;
    const retried: unknown[] = [];
    const value = await retryThroughFailover(
      () => {
        calls++;
        return calls < 3 ? Promise.reject(redisUnavailable()) : Promise.resolve('added');
      },
      5000,
      (err) => retried.push(err),
    );
    expect([value, calls, retried.length]).toEqual(['added', 3, 2]);
  });

  it('gives up with the SERVICE_UNAVAILABLE once the budget is spent', async () => {
    let calls = 0;
    const started = Date.now();
    const failure = await retryThroughFailover(() => {
      calls++;
      return Promise.reject(redisUnavailable());
    }, 400).catch((err: unknown) => err);
    const elapsed = Date.now() - started;
    expect(isRedisUnavailable(failure)).toBe(true);
    expect((failure as ServiceError).status).toBe(503);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(elapsed).toBeLessThan(400 + 300);
  });

  it('does not retry other errors, nor the 503 of a closed queue', async () => {
    for (const err of [
      new ServiceError('INVALID_INPUT'),
      new ServiceError('SERVICE_UNAVAILABLE', { details: 'the job queue is closed' }),
      new Error('boom'),
    ]) {
      let calls = 0;
      await expect(
        retryThroughFailover(() => {
          calls++;
          return Promise.reject(err);
        }, 5000),
      ).rejects.toBe(err);
      expect(calls).toBe(1);
    }
  });

  it('a budget of 0 tries once', async () => {
    let calls = 0;
    await expect(
      retryThroughFailover(() => {
        calls++;
        return Promise.reject(redisUnavailable());
      }, 0),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(calls).toBe(1);
  });
});

describe('what counts as Redis being away during a failover', () => {
  it.each([
    "READONLY You can't write against a read only replica.",
    'MOVED 3999 127.0.0.1:6381',
    'ASK 3999 127.0.0.1:6381',
    'CLUSTERDOWN The cluster is down',
    'TRYAGAIN Multiple keys request during rehashing of slot',
    'Too many Cluster redirections. Last error: Error: Connection is closed.',
    'Failed to refresh slots cache.',
    'All sentinels are unreachable. Retrying from scratch after 100ms.',
  ])('%s', (message) => {
    expect(isRedisConnectionError(new Error(message))).toBe(true);
  });

  it('but not a wrong command', () => {
    expect(isRedisConnectionError(new Error('ERR wrong number of arguments for command'))).toBe(false);
    expect(isRedisConnectionError(new Error('CROSSSLOT Keys in request do not hash to the same slot'))).toBe(false);
  });
});
