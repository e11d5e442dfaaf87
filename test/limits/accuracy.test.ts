/**
 * Accuracy across API nodes, in the manner of Unkey's rate-limit accuracy test: two limiter
 * instances (two "API nodes", each with its own Redis connection) share the machine's Redis; load
 * is offered at 0.9×, 1× and 5× of limits 5 and 20 per window, and the accepted count must be
 * within [0.95×, 1.05×] of what the limit allows for that schedule.
 *
 * Windows are fixed and aligned to the clock, so "what the limit allows" is exact: for each window,
 * min(requests sent in it, limit). Sends are placed half a spacing off the window boundaries so
 * timer jitter does not move a request into the next window.
 *
 * - 1 s windows run in real time (all six cases at once, three windows each: ~4 s).
 * - 60 s windows (v1 Set B) run on an injected clock shared by both nodes: the same schedule over
 *   three simulated minutes, every request in flight at once.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisLimiter, type LimitDecision, type RequestLimiter } from '../../shared/limits/limiter.js';
import { parsePlanCatalog } from '../../shared/limits/plans.js';
import { utcDayOf } from '../../shared/limits/rules.js';
import { connectRedis, deleteKeys, FakeUsageStore, manualClock, sleep, uniqueKeyBase } from './helpers.js';

const LIMITS = [5, 20] as const;
const LOADS = [0.9, 1, 5] as const;
const WINDOWS_PER_CASE = 3;

/** free and basic carry limits 5 and 20 in every generation; no daily quota gets in the way. */
const catalog = parsePlanCatalog({
  plans: {
    free: { v1PerSecond: 5, v1PerMinute: 5, dailyQuota: null },
    basic: { v1PerSecond: 20, v1PerMinute: 20, dailyQuota: null },
  },
});
const planFor = (limit: number) => (limit === 5 ? 'free' : 'basic');

let redisA: Redis;
let redisB: Redis;
const bases: string[] = [];

beforeAll(async () => {
  [redisA, redisB] = await Promise.all([connectRedis(), connectRedis()]);
});
afterAll(async () => {
  await Promise.all(bases.map((b) => deleteKeys(redisA, b)));
  await Promise.all([redisA.quit(), redisB.quit()]);
});

function twoNodes(options: { now?: () => number } = {}) {
  const store = new FakeUsageStore();
  const keyPrefix = uniqueKeyBase();
  bases.push(keyPrefix);
  const common = { catalog, store, keyPrefix, flushIntervalMs: 60_000, ...options };
  const nodes: [RequestLimiter, RequestLimiter] = [
    createRedisLimiter({ ...common, redis: redisA }),
    createRedisLimiter({ ...common, redis: redisB }),
  ];
  return { nodes, store, close: () => Promise.all(nodes.map((n) => n.close())) };
}

/** Send offsets (ms from the first window's start), half a spacing off every boundary. */
function schedule(limit: number, load: number, windowMs: number): number[] {
  const spacing = windowMs / (limit * load);
  const count = Math.floor((WINDOWS_PER_CASE * windowMs) / spacing);
  return Array.from({ length: count }, (_, i) => (i + 0.5) * spacing);
}

/** What an exact fixed-window limiter accepts for these send offsets. */
function allowance(offsets: number[], limit: number, windowMs: number): number {
  const perWindow = new Map<number, number>();
  for (const t of offsets) perWindow.set(Math.floor(t / windowMs), (perWindow.get(Math.floor(t / windowMs)) ?? 0) + 1);
  return [...perWindow.values()].reduce((sum, n) => sum + Math.min(n, limit), 0);
}

function expectAccurate(decisions: LimitDecision[], allowed: number): void {
  const accepted = decisions.filter((d) => d.allowed).length;
  expect(accepted).toBeGreaterThanOrEqual(Math.floor(allowed * 0.95));
  expect(accepted).toBeLessThanOrEqual(Math.ceil(allowed * 1.05));
}

/** Within each window (as the limiter reports it) no more than the limit was accepted: exact. */
function expectNoWindowOver(decisions: LimitDecision[], limit: number): void {
  const acceptedPerWindow = new Map<number, number>();
  for (const d of decisions) if (d.allowed) acceptedPerWindow.set(d.resetAtUnix, (acceptedPerWindow.get(d.resetAtUnix) ?? 0) + 1);
  for (const n of acceptedPerWindow.values()) expect(n).toBeLessThanOrEqual(limit);
}

describe('rate accuracy over 2 API nodes sharing Redis', () => {
  it('1 s windows, limits {5, 20} × load {0.9×, 1×, 5×}, in real time', async () => {
    const { nodes, close } = twoNodes();
    // Start on a second boundary at least 300 ms away, so every case sees whole windows.
    const start = Math.ceil((Date.now() + 300) / 1000) * 1000;
    const cases = LIMITS.flatMap((limit) => LOADS.map((load) => ({ limit, load, offsets: schedule(limit, load, 1000) })));

    const results = await Promise.all(
      cases.map(async ({ limit, load, offsets }) => {
        const accountId = `acct-${limit}-${load}`;
        const inFlight: Promise<LimitDecision>[] = [];
        const sentAt: number[] = [];
        for (const [i, offset] of offsets.entries()) {
          const wait = start + offset - Date.now();
          if (wait > 0) await sleep(wait);
          const request = { accountId, plan: planFor(limit), keyType: 'production', generation: 'v1a', sandbox: false } as const;
          // Timers fire late, never early: the allowance is judged on when requests actually left.
          sentAt.push(Date.now() - start);
          inFlight.push(nodes[i % 2]!.consume(request));
        }
        return { limit, load, offsets, sentAt, decisions: await Promise.all(inFlight) };
      }),
    );
    await close();

    for (const { limit, load, offsets, sentAt, decisions } of results) {
      // The planned schedule allows all of a 0.9× load and exactly `limit` per window above it.
      expect(allowance(offsets, limit, 1000)).toBe(load < 1 ? offsets.length : limit * WINDOWS_PER_CASE);
      expectAccurate(decisions, allowance(sentAt, limit, 1000));
      expectNoWindowOver(decisions, limit);
    }
  }, 15_000);

  for (const limit of LIMITS) {
    for (const load of LOADS) {
      it(`60 s windows (v1 Set B), limit ${limit}, load ${load}×, on an injected clock`, async () => {
        const clock = manualClock(0);
        const { nodes, close } = twoNodes({ now: clock.now });
        const start = Date.UTC(2030, 0, 15, 12, 0, 0);
        const offsets = schedule(limit, load, 60_000);
        const decisions = await Promise.all(
          offsets.map((offset, i) => {
            clock.set(start + offset);
            // consume() reads the clock before its first await, so each request keeps its time.
            return nodes[i % 2]!.consume({
              accountId: 'acct',
              plan: planFor(limit),
              keyType: 'production',
              generation: 'v1b',
              sandbox: false,
            });
          }),
        );
        await close();
        expectAccurate(decisions, allowance(offsets, limit, 60_000));
        expectNoWindowOver(decisions, limit);
      });
    }
  }
});

describe('daily quota exactness over 2 API nodes', () => {
  const quotaCatalog = parsePlanCatalog({ plans: { free: { dailyQuota: 1000, v2PerSecond: null } } });

  function quotaNodes() {
    const store = new FakeUsageStore();
    const keyPrefix = uniqueKeyBase();
    bases.push(keyPrefix);
    const common = { catalog: quotaCatalog, store, keyPrefix, flushIntervalMs: 60_000 };
    const nodes = [createRedisLimiter({ ...common, redis: redisA }), createRedisLimiter({ ...common, redis: redisB })] as const;
    return { nodes, store };
  }
  const request = { accountId: 'acct-q', plan: 'free', keyType: 'production', generation: 'v2', sandbox: false } as const;

  it('1000 concurrent requests against a quota of 1000: exactly 1000 accepted, used == 1000, stored 1000', async () => {
    const { nodes, store } = quotaNodes();
    const decisions = await Promise.all(Array.from({ length: 1000 }, (_, i) => nodes[i % 2]!.consume(request)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(1000);
    const over = await Promise.all(Array.from({ length: 300 }, (_, i) => nodes[i % 2]!.consume(request)));
    expect(over.filter((d) => d.allowed)).toHaveLength(0);
    expect(over.every((d) => d.reason === 'quota' && d.remaining === 0)).toBe(true);
    for (const node of nodes) expect((await node.usage('acct-q', 'free', false)).used).toBe(1000);
    await Promise.all(nodes.map((n) => n.close()));
    expect(await store.getUsage('acct-q', utcDayOf(Date.now()), 'production')).toBe(1000);
  });

  it('1500 concurrent requests with 400 already stored: exactly 600 accepted, even while both nodes seed the day', async () => {
    const { nodes, store } = quotaNodes();
    const day = utcDayOf(Date.now());
    await store.addUsage('acct-q', day, 'production', 400);
    const decisions = await Promise.all(Array.from({ length: 1500 }, (_, i) => nodes[i % 2]!.consume(request)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(600);
    expect((await nodes[1].usage('acct-q', 'free', false)).used).toBe(1000);
    await Promise.all(nodes.map((n) => n.close()));
    expect(await store.getUsage('acct-q', day, 'production')).toBe(1000);
  });

  it('sandbox traffic on either node never changes production usage', async () => {
    const { nodes, store } = quotaNodes();
    const sandbox = await Promise.all(Array.from({ length: 1200 }, (_, i) => nodes[i % 2]!.consume({ ...request, sandbox: true })));
    expect(sandbox.filter((d) => d.allowed)).toHaveLength(1000);
    expect((await nodes[0].usage('acct-q', 'free', false)).used).toBe(0);
    const production = await Promise.all(Array.from({ length: 10 }, (_, i) => nodes[i % 2]!.consume(request)));
    expect(production.every((d) => d.allowed)).toBe(true);
    await Promise.all(nodes.map((n) => n.close()));
    const day = utcDayOf(Date.now());
    expect(await store.getUsage('acct-q', day, 'production')).toBe(10);
    expect(await store.getUsage('acct-q', day, 'sandbox')).toBe(1000);
  });
});
