/** Shared fixtures of the limits tests: a fake usage store, Redis connections, unique key bases. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AccountStore, UsageScope } from '../../shared/store/types.js';

/** The two AccountStore methods the limiter uses, in memory, with a switch to make writes fail. */
export class FakeUsageStore implements Pick<AccountStore, 'addUsage' | 'getUsage'> {
  readonly rows = new Map<string, number>();
  failWrites = false;
  addCalls = 0;

  addUsage(accountId: string, day: string, scope: UsageScope, count: number): Promise<void> {
    this.addCalls += 1;
    if (this.failWrites) return Promise.reject(new Error('store is down'));
    const key = `${accountId}|${day}|${scope}`;
    this.rows.set(key, (this.rows.get(key) ?? 0) + count);
    return Promise.resolve();
  }

  getUsage(accountId: string, day: string, scope: UsageScope): Promise<number> {
    return Promise.resolve(this.rows.get(`${accountId}|${day}|${scope}`) ?? 0);
  }
}

export const REDIS_PORT = 6379;

/** A connection like the service's limiter role: no offline queue, fail fast. */
export async function connectRedis(port = REDIS_PORT): Promise<Redis> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(50 * times, 200),
    lazyConnect: true,
  });
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

export function uniqueKeyBase(): string {
  return `sha224d-test:limits:${randomUUID()}`;
}

export { deleteKeys } from '../queue/redis-helpers.js';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A clock the test moves by hand. */
export function manualClock(startMs: number): { now: () => number; set: (ms: number) => void; advance: (ms: number) => void } {
  let t = startMs;
  return { now: () => t, set: (ms) => (t = ms), advance: (ms) => (t += ms) };
}
