/**
 * When Redis is away the limiter answers SERVICE_UNAVAILABLE at once: it neither hangs nor lets
 * requests through. Runs its own redis-server on a free loopback port and kills it (by its pid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { createRedisLimiter, type RequestLimiter } from '../../shared/limits/limiter.js';
import { DEFAULT_PLAN_CATALOG, parsePlanCatalog } from '../../shared/limits/plans.js';
import { waitFor } from '../helpers/wait.js';
import { connectRedis, FakeUsageStore, sleep, uniqueKeyBase } from './helpers.js';

const request = { accountId: 'acct-down', plan: 'free', keyType: 'production', generation: 'v1b', sandbox: false } as const;
const FAST_MS = 1500;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const servers: ChildProcess[] = [];
const clients: Redis[] = [];
const limiters: RequestLimiter[] = [];

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  servers.push(child);
  for (let i = 0; i < 100; i++) {
    try {
      const probe = await connectRedis(port);
      await probe.quit();
      return child;
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`redis-server did not start on port ${port}`);
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

async function expectUnavailableFast(operation: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const err = await operation().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(Date.now() - started).toBeLessThan(FAST_MS);
  expect(err).toBeInstanceOf(ServiceError);
  expect((err as ServiceError).code).toBe('SERVICE_UNAVAILABLE');
  expect((err as ServiceError).status).toBe(503);
}

afterEach(async () => {
  await Promise.allSettled(limiters.splice(0).map((l) => l.close()));
  clients.splice(0).forEach((c) => c.disconnect());
});
afterAll(async () => {
  await Promise.all(servers.map(stopRedis));
});

describe('Redis unavailable', () => {
  it('refuses with SERVICE_UNAVAILABLE quickly when Redis dies, and resumes the day when it returns', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await connectRedis(port);
    clients.push(redis);
    const store = new FakeUsageStore();
    const limiter = createRedisLimiter({
      catalog: DEFAULT_PLAN_CATALOG,
      store,
      redis,
      keyPrefix: uniqueKeyBase(),
      flushIntervalMs: 60_000,
    });
    limiters.push(limiter);

    for (let i = 0; i < 3; i++) expect((await limiter.consume(request)).allowed).toBe(true);
    await limiter.flush();
    expect((await limiter.consume(request)).allowed).toBe(true); // counted, not yet flushed

    await stopRedis(server);
    // At once (the client may not have seen the socket close yet) and once it has.
    await expectUnavailableFast(() => limiter.consume(request));
    await waitFor(() => redis.status !== 'ready', { timeoutMs: 5000, what: 'the client to see Redis gone' });
    await expectUnavailableFast(() => limiter.consume(request));
    await expectUnavailableFast(() => limiter.usage('acct-down', 'free', false));

    // A Redis that comes back empty: the day continues from the store plus this node's unflushed count.
    await startRedis(port);
    for (let i = 0; i < 60 && redis.status !== 'ready'; i++) await sleep(50);
    expect(redis.status).toBe('ready');
    expect((await limiter.usage('acct-down', 'free', false)).used).toBe(4);
    expect((await limiter.consume(request)).allowed).toBe(true);
    expect((await limiter.usage('acct-down', 'free', false)).used).toBe(5);
    await limiter.close();
    expect(store.rows.get(`acct-down|${new Date().toISOString().slice(0, 10)}|production`)).toBe(5);
  }, 15_000);

  it('keeps the batched day counts of a plan without a quota through an outage and adds them once', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await connectRedis(port);
    clients.push(redis);
    const store = new FakeUsageStore();
    const limiter = createRedisLimiter({
      catalog: DEFAULT_PLAN_CATALOG,
      store,
      redis,
      keyPrefix: uniqueKeyBase(),
      flushIntervalMs: 60_000,
    });
    limiters.push(limiter);
    const unlimited = { ...request, plan: 'enterprise', generation: 'v2' } as const;

    for (let i = 0; i < 3; i++) expect((await limiter.consume(unlimited)).allowed).toBe(true);
    await limiter.flush();
    for (let i = 0; i < 4; i++) expect((await limiter.consume(unlimited)).allowed).toBe(true); // batched, not in Redis yet

    await stopRedis(server);
    await waitFor(() => redis.status !== 'ready', { timeoutMs: 5000, what: 'the client to see Redis gone' });
    await expectUnavailableFast(() => limiter.consume(unlimited));
    // The store takes its counts; the day counter cannot, and keeps them.
    await expect(limiter.flush()).rejects.toThrow();
    expect(store.rows.get(`acct-down|${new Date().toISOString().slice(0, 10)}|production`)).toBe(7);

    // Redis comes back empty: the counter is seeded from the store, less the batch, then takes the batch.
    await startRedis(port);
    for (let i = 0; i < 60 && redis.status !== 'ready'; i++) await sleep(50);
    expect(redis.status).toBe('ready');
    expect((await limiter.usage('acct-down', 'enterprise', false)).used).toBe(7);
    await limiter.flush();
    expect((await limiter.usage('acct-down', 'enterprise', false)).used).toBe(7);
    expect((await limiter.consume(unlimited)).allowed).toBe(true);
    await limiter.close();
    expect(store.rows.get(`acct-down|${new Date().toISOString().slice(0, 10)}|production`)).toBe(8);
  }, 15_000);

  it('refuses with SERVICE_UNAVAILABLE within its budget when Redis stops answering', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await connectRedis(port);
    clients.push(redis);
    const limiter = createRedisLimiter({
      catalog: DEFAULT_PLAN_CATALOG,
      store: new FakeUsageStore(),
      redis,
      keyPrefix: uniqueKeyBase(),
      flushIntervalMs: 60_000,
      operationTimeoutMs: 500,
    });
    limiters.push(limiter);
    expect((await limiter.consume(request)).allowed).toBe(true);
    server.kill('SIGSTOP'); // the socket stays open; nothing answers
    try {
      await expectUnavailableFast(() => limiter.consume(request));
    } finally {
      server.kill('SIGCONT');
    }
  });

  it('a quota take that lands after the deadline is given back: a 503 is never charged', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await connectRedis(port);
    clients.push(redis);
    // No rate window for v2, so the quota take is the call that outruns the deadline.
    const catalog = parsePlanCatalog({ plans: { free: { dailyQuota: 1000, v2PerSecond: null } } });
    const limiter = createRedisLimiter({
      catalog,
      store: new FakeUsageStore(),
      redis,
      keyPrefix: uniqueKeyBase(),
      flushIntervalMs: 60_000,
      operationTimeoutMs: 300,
    });
    limiters.push(limiter);
    const v2 = { ...request, generation: 'v2' } as const;
    expect((await limiter.consume(v2)).allowed).toBe(true);
    server.kill('SIGSTOP'); // the take reaches Redis's socket and waits there
    try {
      await expectUnavailableFast(() => limiter.consume(v2));
    } finally {
      server.kill('SIGCONT');
    }
    // Redis now runs the late take (2) and the give-back (1): the day counts only the answered request.
    let used = -1;
    for (let i = 0; i < 100 && used !== 1; i++) {
      await sleep(20);
      used = (await limiter.usage('acct-down', 'free', false)).used;
    }
    expect(used).toBe(1);
  });

  it('refuses with SERVICE_UNAVAILABLE quickly when Redis was never reachable', async () => {
    const port = await freePort();
    const { Redis } = await import('ioredis');
    const redis = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => 200 });
    redis.on('error', () => undefined);
    clients.push(redis);
    const limiter = createRedisLimiter({
      catalog: DEFAULT_PLAN_CATALOG,
      store: new FakeUsageStore(),
      redis,
      keyPrefix: uniqueKeyBase(),
      flushIntervalMs: 60_000,
    });
    limiters.push(limiter);
    await expectUnavailableFast(() => limiter.consume(request));
    await expectUnavailableFast(() => limiter.consume({ ...request, generation: 'v2', plan: 'enterprise' }));
  });
});
