/**
 * Behaviours every limiter must have, run against both: the in-memory one (embedded mode) and the
 * Redis one (distributed mode, the machine's Redis at 127.0.0.1:6379, a fresh key base per test).
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimitHeaders } from '../../shared/limits/headers.js';
import { createMemoryLimiter, createRedisLimiter, type LimitRequest, type RequestLimiter } from '../../shared/limits/limiter.js';
import { DEFAULT_PLAN_CATALOG, parsePlanCatalog, type PlanCatalog, type PlanCatalogFile } from '../../shared/limits/plans.js';
import { connectRedis, deleteKeys, FakeUsageStore, manualClock, sleep, uniqueKeyBase } from './helpers.js';

/** 12:00:00.100 UTC, 15 Jan 2030: well inside a second, a minute and a day. */
const NOON = Date.UTC(2030, 0, 15, 12, 0, 0, 100);
const DAY = '2030-01-15';
const NEXT_DAY = '2030-01-16';
const MIDNIGHT_UNIX = Date.UTC(2030, 0, 16) / 1000;

interface Harness {
  limiter: RequestLimiter;
  store: FakeUsageStore;
  clock: ReturnType<typeof manualClock>;
  /** Another limiter over the same counters and store, as after a restart of the API process. */
  restart(): RequestLimiter;
  /** Lose the counters, as Redis restarting without persistence (memory: a new process). */
  loseCounters(): Promise<RequestLimiter>;
}

interface Backend {
  name: 'memory' | 'redis';
  make(options?: { catalog?: PlanCatalog; startMs?: number; flushIntervalMs?: number }): Harness;
}

let redis: Redis;
const bases: string[] = [];
const limiters: RequestLimiter[] = [];

beforeAll(async () => {
  redis = await connectRedis();
});
afterEach(async () => {
  await Promise.allSettled(limiters.splice(0).map((l) => l.close()));
  await Promise.all(bases.splice(0).map((b) => deleteKeys(redis, b)));
});
afterAll(async () => {
  await redis.quit();
});

const backends: Backend[] = [
  {
    name: 'memory',
    make({ catalog = DEFAULT_PLAN_CATALOG, startMs = NOON, flushIntervalMs = 60_000 } = {}) {
      const store = new FakeUsageStore();
      const clock = manualClock(startMs);
      const build = () => track(createMemoryLimiter({ catalog, store, now: clock.now, flushIntervalMs }));
      return {
        limiter: build(),
        store,
        clock,
        restart: build,
        loseCounters: () => Promise.resolve(build()),
      };
    },
  },
  {
    name: 'redis',
    make({ catalog = DEFAULT_PLAN_CATALOG, startMs = NOON, flushIntervalMs = 60_000 } = {}) {
      const store = new FakeUsageStore();
      const clock = manualClock(startMs);
      const keyPrefix = uniqueKeyBase();
      bases.push(keyPrefix);
      const build = () => track(createRedisLimiter({ catalog, store, redis, keyPrefix, now: clock.now, flushIntervalMs }));
      const limiter = build();
      return {
        limiter,
        store,
        clock,
        restart: build,
        loseCounters: async () => {
          await deleteKeys(redis, keyPrefix);
          return limiter;
        },
      };
    },
  },
];

function track(limiter: RequestLimiter): RequestLimiter {
  limiters.push(limiter);
  return limiter;
}

function catalogWith(overrides: PlanCatalogFile): PlanCatalog {
  return parsePlanCatalog(overrides);
}

function req(overrides: Partial<LimitRequest> = {}): LimitRequest {
  return { accountId: 'acct-1', plan: 'free', keyType: 'production', generation: 'v1a', sandbox: false, ...overrides };
}

async function consumeN(limiter: RequestLimiter, n: number, request: LimitRequest) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await limiter.consume(request));
  return out;
}

describe.each(backends)('$name limiter', (backend) => {
  it('enforces the per-second rate, reporting the window in the decision', async () => {
    const { limiter, clock } = backend.make();
    const decisions = await consumeN(limiter, 7, req());
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions.slice(0, 5).map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    for (const d of decisions) {
      expect(d).toMatchObject({ window: 'second', limit: 5, resetAtUnix: Math.floor(NOON / 1000) + 1 });
    }
    expect(decisions[5]).toMatchObject({ reason: 'rate', remaining: 0, retryAfterSeconds: 1 });

    clock.advance(1000);
    expect((await limiter.consume(req())).allowed).toBe(true);
    // Refused requests count nowhere: 5 + 1 accepted.
    expect((await limiter.usage('acct-1', 'free', false)).used).toBe(6);
  });

  it('keeps one bucket per generation: v1 Set A, v1 Set B (per minute), v2 and WebSocket together', async () => {
    const { limiter } = backend.make();
    await consumeN(limiter, 5, req({ generation: 'v1a' }));
    expect((await limiter.consume(req({ generation: 'v1a' }))).allowed).toBe(false);
    const v1b = await limiter.consume(req({ generation: 'v1b' }));
    expect(v1b).toMatchObject({
      allowed: true,
      window: 'minute',
      limit: 10,
      remaining: 9,
      resetAtUnix: Math.floor(NOON / 60_000 + 1) * 60,
    });
    const v2 = await consumeN(limiter, 5, req({ generation: 'v2' }));
    const ws = await consumeN(limiter, 6, req({ generation: 'ws' }));
    expect([...v2, ...ws].map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
  });

  it("counts an account's keys together, development keys at a reduced rate", async () => {
    const { limiter } = backend.make();
    const dev = await consumeN(limiter, 3, req({ generation: 'v2', keyType: 'development' }));
    // free v2: 10/s; development: 10 × 0.2 = 2/s
    expect(dev.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(dev[0]!.limit).toBe(2);
    const prod = await consumeN(limiter, 9, req({ generation: 'v2', keyType: 'client' }));
    expect(prod.filter((d) => d.allowed)).toHaveLength(8);
    expect((await limiter.consume(req({ generation: 'v2', accountId: 'acct-2' }))).allowed).toBe(true);
  });

  it('refuses past the daily quota until UTC midnight, reporting the binding window', async () => {
    const catalog = catalogWith({ plans: { free: { dailyQuota: 3 } } });
    const { limiter, clock, store } = backend.make({ catalog, startMs: Date.UTC(2030, 0, 15, 23, 59, 59, 500) });
    const ok = await consumeN(limiter, 3, req({ generation: 'v1b' }));
    // Minute window has 9, 8, 7 left; the day has 2, 1, 0: the day binds.
    expect(ok.map((d) => [d.allowed, d.window, d.limit, d.remaining])).toEqual([
      [true, 'day', 3, 2],
      [true, 'day', 3, 1],
      [true, 'day', 3, 0],
    ]);
    expect(ok[0]!.resetAtUnix).toBe(MIDNIGHT_UNIX);
    const refused = await limiter.consume(req({ generation: 'v1b' }));
    expect(refused).toMatchObject({
      allowed: false,
      reason: 'quota',
      window: 'day',
      limit: 3,
      remaining: 0,
      resetAtUnix: MIDNIGHT_UNIX,
      retryAfterSeconds: 1,
    });
    const before = await limiter.usage('acct-1', 'free', false);
    expect(before).toMatchObject({ used: 3, remaining: 0, dailyQuota: 3, resetTime: new Date(MIDNIGHT_UNIX * 1000) });
    // The refused request did not use a slot of the minute window.
    expect(before.minuteWindow).toEqual({ limit: 10, remaining: 7, resetAtUnix: MIDNIGHT_UNIX });

    clock.set(Date.UTC(2030, 0, 16, 0, 0, 0, 200));
    expect(await limiter.consume(req({ generation: 'v1b' }))).toMatchObject({ allowed: true, window: 'day', remaining: 2 });
    const after = await limiter.usage('acct-1', 'free', false);
    expect(after).toMatchObject({ used: 1, remaining: 2, resetTime: new Date(Date.UTC(2030, 0, 17)) });

    await limiter.flush();
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(3);
    expect(await store.getUsage('acct-1', NEXT_DAY, 'production')).toBe(1);
  });

  it('reports no limit as -1 and still counts the requests', async () => {
    const { limiter } = backend.make();
    const decisions = await consumeN(limiter, 50, req({ plan: 'enterprise', generation: 'v2' }));
    expect(decisions.every((d) => d.allowed && d.window === 'none' && d.limit === -1 && d.remaining === -1)).toBe(true);
    expect(decisions[0]!.resetAtUnix).toBe(MIDNIGHT_UNIX);
    const usage = await limiter.usage('acct-1', 'enterprise', false);
    expect(usage).toMatchObject({
      used: 50,
      dailyQuota: null,
      remaining: null,
      requestsPerSecond: { v1: null, v2: null },
      requestsPerMinute: 1000,
    });
  });

  it('reports the plan in the usage snapshot', async () => {
    const { limiter } = backend.make();
    await limiter.consume(req({ plan: 'basic', generation: 'v1b' }));
    expect(await limiter.usage('acct-1', 'basic', false)).toEqual({
      plan: 'basic',
      tier: 'Developer',
      sandbox: false,
      dailyQuota: 10_000,
      used: 1,
      remaining: 9_999,
      resetTime: new Date(MIDNIGHT_UNIX * 1000),
      requestsPerSecond: { v1: 20, v2: 50 },
      requestsPerMinute: 60,
      minuteWindow: { limit: 60, remaining: 59, resetAtUnix: Math.floor(NOON / 60_000 + 1) * 60 },
      maxFileBytes: { v1: 25 * 1024 * 1024, v2: 50 * 1024 * 1024 },
      wsConnections: 5,
    });
    expect((await limiter.usage('acct-1', 'basic', false, 'development')).requestsPerSecond).toEqual({ v1: 4, v2: 10 });
  });

  it('counts the sandbox apart: it never changes production usage', async () => {
    const catalog = catalogWith({ plans: { free: { dailyQuota: 5 } } });
    const { limiter, clock, store } = backend.make({ catalog });
    for (let i = 0; i < 8; i++) {
      await limiter.consume(req({ sandbox: true, generation: 'v2' }));
      clock.advance(1000);
    }
    expect(await limiter.usage('acct-1', 'free', true)).toMatchObject({ used: 5, remaining: 0, sandbox: true });
    expect(await limiter.usage('acct-1', 'free', false)).toMatchObject({ used: 0, remaining: 5 });
    // Production's rate window and quota are untouched by sandbox traffic.
    expect((await consumeN(limiter, 5, req({ generation: 'v2' }))).every((d) => d.allowed)).toBe(true);
    await limiter.flush();
    expect(await store.getUsage('acct-1', DAY, 'sandbox')).toBe(5);
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(5);
  });

  it("starts the day from the store's count", async () => {
    const { limiter, store } = backend.make();
    await store.addUsage('acct-1', DAY, 'production', 998);
    const decisions = await consumeN(limiter, 3, req({ generation: 'v1b' }));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect((await limiter.usage('acct-1', 'free', false)).used).toBe(1000);
    await limiter.flush();
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(1000);
  });

  it('continues the day after the counters are lost', async () => {
    const h = backend.make();
    await consumeN(h.limiter, 3, req({ generation: 'v1b' }));
    await h.limiter.flush();
    await consumeN(h.limiter, 2, req({ generation: 'v1b' })); // not flushed yet
    const after = await h.loseCounters();
    const expected = backend.name === 'redis' ? 5 : 3; // same node keeps its unflushed 2; a new process cannot
    expect((await after.usage('acct-1', 'free', false)).used).toBe(expected);
    expect((await after.consume(req({ generation: 'v1b' }))).allowed).toBe(true);
    expect((await after.usage('acct-1', 'free', false)).used).toBe(expected + 1);
    await Promise.all([h.limiter.flush(), after.flush()]);
    expect(await h.store.getUsage('acct-1', DAY, 'production')).toBe(6);
  });

  it('flushes on its interval, and keeps counts the store refused for the next flush', async () => {
    const { limiter, store } = backend.make({ flushIntervalMs: 30 });
    await consumeN(limiter, 2, req());
    await sleep(120);
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(2);

    store.failWrites = true;
    await consumeN(limiter, 3, req());
    await expect(limiter.flush()).rejects.toThrow('store is down');
    store.failWrites = false;
    await limiter.flush();
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(5);
  });

  it('close() flushes once and returns the same promise', async () => {
    const { limiter, store } = backend.make();
    await consumeN(limiter, 4, req());
    const first = limiter.close();
    expect(limiter.close()).toBe(first);
    await first;
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(4);
  });

  it('sends consistent headers on every response', async () => {
    const { limiter } = backend.make();
    const decisions = await consumeN(limiter, 14, req({ generation: 'v2' }));
    const headers = decisions.map((d) => rateLimitHeaders(d, 'v2'));
    for (const [i, h] of headers.entries()) {
      expect(h['X-RateLimit-Limit']).toBe('10');
      expect(h['X-RateLimit-Reset']).toBe(String(Math.floor(NOON / 1000) + 1));
      expect(Number(h['X-RateLimit-Remaining'])).toBe(Math.max(0, 9 - i));
      expect(h['X-RateLimit-Retry-After']).toBe(i < 10 ? '0' : '1');
      expect(h['Retry-After']).toBe(i < 10 ? undefined : '1');
    }
  });

  it('is exact under 1000 concurrent requests against a quota of 1000', async () => {
    const catalog = catalogWith({ plans: { free: { dailyQuota: 1000, v2PerSecond: null } } });
    const { limiter, store } = backend.make({ catalog });
    const first = await Promise.all(Array.from({ length: 1000 }, () => limiter.consume(req({ generation: 'v2' }))));
    expect(first.filter((d) => d.allowed)).toHaveLength(1000);
    const extra = await Promise.all(Array.from({ length: 200 }, () => limiter.consume(req({ generation: 'v2' }))));
    expect(extra.filter((d) => d.allowed)).toHaveLength(0);
    expect((await limiter.usage('acct-1', 'free', false)).used).toBe(1000);
    await limiter.flush();
    expect(await store.getUsage('acct-1', DAY, 'production')).toBe(1000);
  });

  it('rejects a non-positive flush interval before any I/O', () => {
    expect(() => createMemoryLimiter({ catalog: DEFAULT_PLAN_CATALOG, store: new FakeUsageStore(), flushIntervalMs: 0 })).toThrow(
      RangeError,
    );
  });

  it(`starts ${backend.name === 'memory' ? 'no timer' : 'one timer per call, not one per counter operation'} while consuming`, async () => {
    const { limiter } = backend.make();
    await limiter.consume(req({ generation: 'v2' })); // the day's counter is seeded on the first call
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      // A v2 request takes a rate hit and a quota unit: two counter operations.
      expect((await limiter.consume(req({ generation: 'v2' }))).allowed).toBe(true);
      await limiter.usage('acct-1', 'free', false);
      expect(setTimeoutSpy).toHaveBeenCalledTimes(backend.name === 'memory' ? 0 : 2);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});
