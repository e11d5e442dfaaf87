/**
 * A plan without a daily quota has nothing to check against the day's count, so its requests send
 * no command to Redis (day-count-batch.ts): every command that names the test's keys is recorded as
 * the limiters' connections send it. Its usage figures stay exact: on the node that served the
 * requests at once, on every node after a flush, at most about a second later by itself.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisLimiter, type LimitRequest, type RequestLimiter } from '../../shared/limits/limiter.js';
import { parsePlanCatalog } from '../../shared/limits/plans.js';
import { utcDayOf } from '../../shared/limits/rules.js';
import { quotaDayRedisKey } from '../../shared/naming.js';
import { connectRedis, deleteKeys, FakeUsageStore, sleep, uniqueKeyBase } from './helpers.js';

/** Enterprise: no quota and no rate. Free: a quota of 1000 and no rate, so a request costs exactly the quota take. */
const catalog = parsePlanCatalog({ plans: { free: { dailyQuota: 1000, v2PerSecond: null } } });

let redisA: Redis;
let redisB: Redis;
const bases: string[] = [];
const limiters: RequestLimiter[] = [];

beforeAll(async () => {
  [redisA, redisB] = await Promise.all([connectRedis(), connectRedis()]);
});
afterEach(async () => {
  await Promise.allSettled(limiters.splice(0).map((l) => l.close()));
  await Promise.all(bases.splice(0).map((b) => deleteKeys(redisA, b)));
});
afterAll(async () => {
  await Promise.all([redisA.quit(), redisB.quit()]);
});

/** API nodes sharing one key base and one store, each on its own Redis connection. */
function nodes(connections: Redis[], dayCountFlushMs?: number): { nodes: RequestLimiter[]; store: FakeUsageStore; keyPrefix: string } {
  const store = new FakeUsageStore();
  const keyPrefix = uniqueKeyBase();
  bases.push(keyPrefix);
  const made = connections.map((redis) =>
    createRedisLimiter({ catalog, store, redis, keyPrefix, flushIntervalMs: 60_000, dayCountFlushMs }),
  );
  limiters.push(...made);
  return { nodes: made, store, keyPrefix };
}

function req(overrides: Partial<LimitRequest> = {}): LimitRequest {
  return { accountId: 'acct-1', plan: 'enterprise', keyType: 'production', generation: 'v2', sandbox: false, ...overrides };
}

/**
 * The commands the limiters send to Redis that name a key under `keyPrefix`, recorded as each
 * connection sends them (its `sendCommand`). MONITOR on the shared Redis would see the same, but
 * ioredis's monitor mode loses track of its replies when other suites keep that Redis busy.
 * `settle()` is kept for the steps' readability: sending is synchronous, so nothing is pending.
 */
function watchCommands(keyPrefix: string): { names: () => string[]; settle: () => Promise<void>; stop: () => void } {
  const seen: string[] = [];
  const restores = [redisA, redisB].map((connection) => {
    const send = connection.sendCommand.bind(connection);
    connection.sendCommand = (command: Parameters<Redis['sendCommand']>[0], stream?: Parameters<Redis['sendCommand']>[1]) => {
      const args = command.args.map((arg) => (Buffer.isBuffer(arg) ? arg.toString() : String(arg)));
      if (args.some((arg) => arg.startsWith(keyPrefix))) seen.push(command.name.toLowerCase());
      return send(command, stream);
    };
    return () => {
      connection.sendCommand = send;
    };
  });
  return {
    names: () => [...seen],
    settle: () => Promise.resolve(),
    stop: () => restores.forEach((restore) => restore()),
  };
}

describe('plans without a daily quota', () => {
  it('send no command to Redis per request; a flush adds the day count in one command', async () => {
    // Only the explicit flushes below may send the day count: no timer flush mid-step on a slow machine.
    const {
      nodes: [node],
      keyPrefix,
    } = nodes([redisA], 60_000);
    const dayKey = quotaDayRedisKey(keyPrefix, 'production', 'acct-1', utcDayOf(Date.now()));
    const watch = watchCommands(keyPrefix);
    try {
      // The monitor sees this limiter's commands: a plan with a quota costs one per request.
      const limited = await Promise.all(Array.from({ length: 50 }, () => node!.consume(req({ accountId: 'acct-quota', plan: 'free' }))));
      expect(limited.every((d) => d.allowed && d.window === 'day')).toBe(true);
      await watch.settle();
      expect(watch.names().filter((name) => name === 'evalsha').length).toBeGreaterThanOrEqual(50);

      const counted = watch.names().length;
      const decisions = await Promise.all(Array.from({ length: 200 }, () => node!.consume(req())));
      expect(decisions.every((d) => d.allowed && d.window === 'none' && d.limit === -1)).toBe(true);
      await watch.settle();
      expect(watch.names().slice(counted)).toEqual([]);

      await node!.flush(); // the day counter is new: one command finds it missing, one seeds and adds
      expect(await redisA.get(dayKey)).toBe('200');
      await watch.settle();
      const afterFirstFlush = watch.names().length;

      await Promise.all(Array.from({ length: 300 }, () => node!.consume(req())));
      await node!.flush();
      await watch.settle();
      expect(watch.names().slice(afterFirstFlush)).toEqual(['evalsha']);
      expect(await redisA.get(dayKey)).toBe('500');
      expect((await node!.usage('acct-1', 'enterprise', false)).used).toBe(500);
    } finally {
      watch.stop();
    }
  });

  it('are decided by consumeSync with the decision and the count consume gives; plans with a quota are left to consume', async () => {
    const {
      nodes: [node],
    } = nodes([redisA]);
    const sync = node!.consumeSync!(req());
    const viaPromise = await node!.consume(req());
    expect(sync).toEqual(viaPromise);
    expect(sync).toMatchObject({ allowed: true, window: 'none', limit: -1, remaining: -1, retryAfterSeconds: 0 });
    expect(node!.consumeSync!(req({ plan: 'free' }))).toBeUndefined();
    expect((await node!.usage('acct-1', 'enterprise', false)).used).toBe(2);
  });

  it('keep /v1/usage exact across two API nodes after a flush, and on the serving node at once', async () => {
    const {
      nodes: [a, b],
      store,
    } = nodes([redisA, redisB]);
    await Promise.all(Array.from({ length: 500 }, (_, i) => (i % 5 < 3 ? a! : b!).consume(req())));
    // Each node sees its own requests at once, whatever the other has flushed yet.
    expect((await a!.usage('acct-1', 'enterprise', false)).used).toBeGreaterThanOrEqual(300);
    expect((await b!.usage('acct-1', 'enterprise', false)).used).toBeGreaterThanOrEqual(200);

    await a!.flush();
    await b!.flush();
    for (const node of [a!, b!]) {
      expect(await node.usage('acct-1', 'enterprise', false)).toMatchObject({ used: 500, dailyQuota: null, remaining: null });
      expect((await node.usage('acct-1', 'enterprise', true)).used).toBe(0);
    }
    const day = utcDayOf(Date.now());
    expect(await store.getUsage('acct-1', day, 'production')).toBe(500);

    // Counts not yet flushed when Redis loses the counter: the serving node still reports them, and
    // the counter, seeded from the store, ends exact once they are flushed.
    await Promise.all(Array.from({ length: 7 }, () => a!.consume(req())));
    await Promise.all(bases.map((base) => deleteKeys(redisA, base)));
    expect((await a!.usage('acct-1', 'enterprise', false)).used).toBe(507);
    await a!.flush();
    expect((await b!.usage('acct-1', 'enterprise', false)).used).toBe(507);
    expect(await store.getUsage('acct-1', day, 'production')).toBe(507);
  });

  it('reach the other nodes by themselves within about a second', async () => {
    const {
      nodes: [a, b],
    } = nodes([redisA, redisB]);
    await Promise.all(Array.from({ length: 40 }, () => a!.consume(req())));
    const started = Date.now();
    let seenOnB = 0;
    while (Date.now() - started < 10_000) {
      seenOnB = (await b!.usage('acct-1', 'enterprise', false)).used;
      if (seenOnB === 40) break;
      await sleep(50);
    }
    expect(seenOnB).toBe(40);
  });

  it('count toward a quota the plan gains later in the day', async () => {
    const {
      nodes: [node],
    } = nodes([redisA]);
    await Promise.all(Array.from({ length: 995 }, () => node!.consume(req())));
    // The account moves to a plan with a quota of 1000 before its counts were flushed.
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await node!.consume(req({ plan: 'free' })));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions[4]).toMatchObject({ window: 'day', limit: 1000, remaining: 0 });
    expect((await node!.usage('acct-1', 'free', false)).used).toBe(1000);
  });
});
