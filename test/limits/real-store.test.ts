/**
 * The limiter against the real AccountStore (SQLite in memory): counts accepted on two API nodes
 * reach usage_daily exactly, and a fresh Redis continues the day from it.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisLimiter } from '../../shared/limits/limiter.js';
import { parsePlanCatalog } from '../../shared/limits/plans.js';
import { utcDayOf } from '../../shared/limits/rules.js';
import { createStore } from '../../shared/store/kysely-store.js';
import type { AccountStore } from '../../shared/store/types.js';
import { connectRedis, deleteKeys, uniqueKeyBase } from './helpers.js';

let redisA: Redis;
let redisB: Redis;
let store: AccountStore;
const keyPrefix = uniqueKeyBase();

beforeAll(async () => {
  [redisA, redisB, store] = await Promise.all([connectRedis(), connectRedis(), createStore({ sqlitePath: ':memory:' })]);
});
afterAll(async () => {
  await deleteKeys(redisA, keyPrefix);
  await Promise.all([redisA.quit(), redisB.quit(), store.close()]);
});

describe('limiter with the SQL store', () => {
  it('writes exactly the accepted count to usage_daily and seeds a lost day from it', async () => {
    const account = await store.createAccount({ name: 'limits', plan: 'free' });
    const catalog = parsePlanCatalog({ plans: { free: { dailyQuota: 1000, v2PerSecond: null } } });
    const common = { catalog, store, keyPrefix, flushIntervalMs: 60_000 };
    const nodes = [createRedisLimiter({ ...common, redis: redisA }), createRedisLimiter({ ...common, redis: redisB })];
    const request = { accountId: account.id, plan: 'free', keyType: 'production', generation: 'v2', sandbox: false } as const;

    const decisions = await Promise.all(Array.from({ length: 1200 }, (_, i) => nodes[i % 2]!.consume(request)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1000);
    await Promise.all(nodes.map((n) => n.flush()));
    const day = utcDayOf(Date.now());
    expect(await store.getUsage(account.id, day, 'production')).toBe(1000);
    expect(await store.getUsage(account.id, day, 'sandbox')).toBe(0);

    await deleteKeys(redisA, keyPrefix); // Redis restarted empty
    expect((await nodes[0]!.usage(account.id, 'free', false)).used).toBe(1000);
    expect((await nodes[1]!.consume(request)).allowed).toBe(false);
    await Promise.all(nodes.map((n) => n.close()));
  });
});
