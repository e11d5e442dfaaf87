/**
 * The Redis settings (shared/redis/topology.ts): three topologies, each refusal naming the
 * setting, the queue prefix per topology, and the client each role gets from the one factory.
 */
import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';
import { closeRedis, createRedis, type RedisRole } from '../../shared/queue/redis-connection.js';
import { reconnectOnReadonly } from '../../shared/redis/client-factory.js';
import { describeTopology } from '../../shared/redis/topology.js';
import { spawnEntry } from '../helpers/spawn.js';

describe('Redis topology settings', () => {
  it('REDIS_URL is one node (redis:// or rediss://), keeping the prefix unset (BullMQ `bull`, unprefixed keys)', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({
      mode: 'distributed',
      redis: { kind: 'single', url: 'redis://127.0.0.1:6379' },
      QUEUE_PREFIX: undefined,
    });
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@redis.example:6380/0' }).redis).toEqual({
      kind: 'single',
      url: 'rediss://:pw@redis.example:6380/0',
    });
    expect(loadConfig({}).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: '' }).mode).toBe('embedded');
  });

  it('REDIS_SENTINELS + REDIS_SENTINEL_NAME, with the data nodes’ and the sentinels’ passwords', () => {
    const config = loadConfig({
      REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b:26380,[::1]:26381',
      REDIS_SENTINEL_NAME: 'mymaster',
      REDIS_PASSWORD: 'data-secret',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(config.redis).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'mymaster',
      password: 'data-secret',
      sentinelPassword: 'sentinel-secret',
    });
    expect(config.QUEUE_PREFIX).toBeUndefined();
    expect(describeTopology(config.redis!)).toBe('sentinel mymaster via 10.0.0.1:26379,sentinel-b:26380,::1:26381');
  });

  it('REDIS_CLUSTER_NODES: QUEUE_PREFIX defaults to {sha224d}; one of its own must carry a hash tag', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001', REDIS_PASSWORD: 'pw' });
    expect(config.redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
      password: 'pw',
    });
    expect(config.QUEUE_PREFIX).toBe('{sha224d}');
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: 'prod{eu}' }).QUEUE_PREFIX).toBe('prod{eu}');
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: 'prod' })).toThrow(
      'Invalid configuration: QUEUE_PREFIX must contain a hash tag such as {prod} on a Redis Cluster (REDIS_CLUSTER_NODES)',
    );
  });

  it('QUEUE_PREFIX may hold one hash tag on any topology; malformed braces are refused', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: '{sha224d}' }).QUEUE_PREFIX).toBe('{sha224d}');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: 'bull' }).QUEUE_PREFIX).toBe('bull');
    for (const bad of ['{}', '{a}{b}', 'a{b', 'a}b', '{a{b}}', 'x y', 'a'.repeat(65)]) {
      expect(() => loadConfig({ QUEUE_PREFIX: bad }), bad).toThrow(/^Invalid configuration: QUEUE_PREFIX: /);
    }
  });

  it.each([
    [
      { REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_NODES: 'b:7000' },
      'REDIS_URL and REDIS_CLUSTER_NODES are set: choose one Redis topology',
    ],
    [{ REDIS_URL: 'redis://a:6379', REDIS_SENTINELS: 'b:26379', REDIS_SENTINEL_NAME: 'm' }, 'REDIS_URL and REDIS_SENTINELS are set'],
    [{ REDIS_SENTINELS: 'b:26379', REDIS_CLUSTER_NODES: 'c:7000' }, 'REDIS_SENTINELS and REDIS_CLUSTER_NODES are set'],
    [{ REDIS_SENTINELS: 'b:26379' }, 'REDIS_SENTINELS needs REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINEL_NAME: 'm' }, 'REDIS_SENTINEL_NAME is set without REDIS_SENTINELS'],
    [{ REDIS_CLUSTER_NODES: 'c:7000', REDIS_SENTINEL_PASSWORD: 'x' }, 'REDIS_SENTINEL_PASSWORD is set without REDIS_SENTINELS'],
    [
      { REDIS_URL: 'redis://a:6379', REDIS_PASSWORD: 'x' },
      'REDIS_PASSWORD is for REDIS_SENTINELS or REDIS_CLUSTER_NODES; put the password in REDIS_URL',
    ],
    [{ REDIS_PASSWORD: 'x' }, 'REDIS_PASSWORD is set without REDIS_SENTINELS or REDIS_CLUSTER_NODES'],
    [{ REDIS_URL: 'http://a:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ REDIS_CLUSTER_NODES: 'c' }, 'REDIS_CLUSTER_NODES: "c" is not host:port (port 1-65535)'],
    [{ REDIS_CLUSTER_NODES: 'c:0' }, 'REDIS_CLUSTER_NODES: "c:0" is not host:port'],
    [{ REDIS_SENTINELS: ' , ', REDIS_SENTINEL_NAME: 'm' }, 'REDIS_SENTINELS must list at least one host:port'],
    [{ REDIS_SENTINELS: 'b:26379,b', REDIS_SENTINEL_NAME: 'm' }, 'REDIS_SENTINELS: "b" is not host:port'],
  ])('%o is refused: %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
  });

  it('a worker given two topologies refuses to start, naming both settings', async () => {
    const worker = spawnEntry('worker', { REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_NODES: '127.0.0.1:2', METRICS_PORT: '0' });
    expect(await worker.exited).not.toBe(0);
    expect(worker.output()).toContain('REDIS_URL and REDIS_CLUSTER_NODES are set: choose one Redis topology');
  });
});

describe('the one client factory', () => {
  const sentinel = loadConfig({ REDIS_SENTINELS: '127.0.0.1:1', REDIS_SENTINEL_NAME: 'm', REDIS_PASSWORD: 'pw' }).redis!;
  const cluster = loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:1,127.0.0.1:2' }).redis!;

  it.each(['producer', 'limiter', 'worker', 'subscriber'] as RedisRole[])(
    '%s: every Sentinel client has failoverDetector and keeps the ready check',
    async (role) => {
      const client = createRedis(sentinel, role);
      try {
        expect(client).toBeInstanceOf(Redis);
        const options = (client as Redis).options;
        expect(options).toMatchObject({
          name: 'm',
          sentinels: [{ host: '127.0.0.1', port: 1 }],
          password: 'pw',
          failoverDetector: true,
          enableReadyCheck: true,
        });
        expect(options.maxRetriesPerRequest).toBe(role === 'worker' || role === 'subscriber' ? null : 1);
        expect(options.enableOfflineQueue).toBe(role === 'worker' || role === 'subscriber');
      } finally {
        await closeRedis(client);
      }
    },
  );

  it.each(['producer', 'limiter', 'worker', 'subscriber'] as RedisRole[])(
    '%s on a cluster: a Cluster; sharded subscribers for the subscriber only',
    async (role) => {
      const client = createRedis(cluster, role);
      try {
        expect(client).toBeInstanceOf(Cluster);
        const options = (client as Cluster).options;
        expect(options.shardedSubscribers).toBe(role === 'subscriber');
        expect(options.enableOfflineQueue).toBe(role === 'worker' || role === 'subscriber');
        expect(options.redisOptions?.maxRetriesPerRequest).toBe(role === 'worker' || role === 'subscriber' ? null : 1);
      } finally {
        await closeRedis(client);
      }
    },
  );

  it('READONLY (a demoted primary) reconnects and resends; other errors do not', () => {
    expect(reconnectOnReadonly(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(reconnectOnReadonly(new Error('ERR wrong number of arguments'))).toBe(false);
  });
});
