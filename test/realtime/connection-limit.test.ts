/** Connection counting: in memory, and in Redis across nodes with crash expiry (real Redis). */
import { Redis } from 'ioredis';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryConnectionRegistry, type ConnectionRegistry } from '../../api/realtime/connection-limit.js';
import { RedisConnectionRegistry } from '../../api/realtime/redis-connection-registry.js';
import { resolveRealtimeOptions } from '../../api/realtime/options.js';
import { createLogger } from '../../shared/log.js';
import { namespacedRedisKey, wsConnectionsRedisKey } from '../../shared/naming.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { stallFor } from '../helpers/wait.js';

const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

describe('MemoryConnectionRegistry', () => {
  it('counts per account, refuses at the limit, releases once', async () => {
    const registry = new MemoryConnectionRegistry();
    const a = await registry.acquire('acct', 2);
    const b = await registry.acquire('acct', 2);
    expect(a && b).toBeTruthy();
    expect(await registry.acquire('acct', 2)).toBeUndefined();
    expect(await registry.acquire('other', 2)).toBeDefined();
    await a!.release();
    await a!.release(); // idempotent: frees one slot, not two
    expect(await registry.acquire('acct', 2)).toBeDefined();
    expect(await registry.acquire('acct', 2)).toBeUndefined();
  });

  it('null means unlimited', async () => {
    const registry = new MemoryConnectionRegistry();
    for (let i = 0; i < 100; i++) expect(await registry.acquire('acct', null)).toBeDefined();
  });
});

describe('RedisConnectionRegistry', () => {
  const prefix = freshPrefix();
  const open: ConnectionRegistry[] = [];
  let redis: Redis;
  const HEARTBEAT_MS = 100;
  const STALE_MS = 400;
  const make = (heartbeatMs = HEARTBEAT_MS, staleMs = STALE_MS): RedisConnectionRegistry => {
    const registry = new RedisConnectionRegistry({ url: SHARED_REDIS_URL, namespace: prefix, heartbeatMs, staleMs, logger });
    open.push(registry);
    return registry;
  };
  beforeAll(() => {
    redis = new Redis(SHARED_REDIS_URL);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    redis.disconnect();
    await dropPrefix(SHARED_REDIS_URL, prefix);
  });

  it('two nodes share one count per account', async () => {
    const [nodeA, nodeB] = [make(), make()];
    const lease = await nodeA.acquire('acct-1', 1);
    expect(lease).toBeDefined();
    expect(await nodeB.acquire('acct-1', 1)).toBeUndefined();
    await lease!.release();
    expect(await nodeB.acquire('acct-1', 1)).toBeDefined();
  });

  it("heartbeats keep a live node's connections counted past the stale time", async () => {
    const [nodeA, nodeB] = [make(), make()];
    expect(await nodeA.acquire('acct-2', 1)).toBeDefined();
    // The input: 2.5 stale times pass, in which only the heartbeats keep the connection counted.
    await stallFor(2.5 * STALE_MS);
    expect(await nodeB.acquire('acct-2', 1)).toBeUndefined();
  });

  it('the connections of a node that stopped heartbeating (crashed) stop counting after the stale time', async () => {
    const key = namespacedRedisKey(prefix, wsConnectionsRedisKey('acct-3'));
    const [seconds, micros] = await redis.time();
    // A member of a crashed node: last heartbeat 1 s ago.
    await redis.zadd(key, String(Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - 1000), 'dead-node:1');
    const node = make();
    expect(await node.acquire('acct-3', 1)).toBeDefined();
    expect(await redis.zrange(key, '0', '-1')).not.toContain('dead-node:1');
  });

  it('close() releases every lease the node holds', async () => {
    const node = make();
    await node.acquire('acct-4', 3);
    await node.acquire('acct-4', 3);
    await node.close();
    expect(await redis.zcard(namespacedRedisKey(prefix, wsConnectionsRedisKey('acct-4')))).toBe(0);
  });
});

describe('resolveRealtimeOptions', () => {
  it('merges over the defaults and names a bad option', () => {
    expect(resolveRealtimeOptions({ pingIntervalMs: 500 }).pingIntervalMs).toBe(500);
    expect(() => resolveRealtimeOptions({ maxInFlight: 0 })).toThrow(new RangeError('maxInFlight must be a positive integer'));
    expect(() => resolveRealtimeOptions({ connectionHeartbeatMs: 20_000 })).toThrow(/connectionStaleMs must exceed/);
    expect(() => resolveRealtimeOptions({ nope: 1 } as never)).toThrow(/unknown realtime option nope/);
  });
});
