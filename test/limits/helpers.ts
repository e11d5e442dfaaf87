/** Shared fixtures of the limits tests: a fake usage store, Redis connections, unique key bases. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AccountStore, KeyUsageEntry, UsageFlush, UsageScope } from '../../shared/store/types.js';

/** The AccountStore methods the limiter uses, in memory, with a switch to make writes fail. */
export class FakeUsageStore implements Pick<AccountStore, 'addUsage' | 'applyUsage' | 'getUsage'> {
  readonly rows = new Map<string, number>();
  /** Per-credential entries of every applied flush, in order. */
  readonly byKey: KeyUsageEntry[] = [];
  readonly appliedIds = new Set<string>();
  failWrites = false;
  addCalls = 0;

  /** As the SQL store: a flush id applied before is skipped. */
  applyUsage(flush: UsageFlush): Promise<void> {
    this.addCalls += 1;
    if (this.failWrites) return Promise.reject(new Error('store is down'));
    if (this.appliedIds.has(flush.id)) return Promise.resolve();
    this.appliedIds.add(flush.id);
    for (const t of flush.totals) this.add(t.accountId, t.day, t.scope, t.count);
    this.byKey.push(...flush.byKey);
    return Promise.resolve();
  }

  addUsage(accountId: string, day: string, scope: UsageScope, count: number): Promise<void> {
    if (this.failWrites) return Promise.reject(new Error('store is down'));
    this.add(accountId, day, scope, count);
    return Promise.resolve();
  }

  private add(accountId: string, day: string, scope: UsageScope, count: number): void {
    const key = `${accountId}|${day}|${scope}`;
    this.rows.set(key, (this.rows.get(key) ?? 0) + count);
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
