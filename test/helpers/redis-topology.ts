/**
 * Replicated Redis topologies as real redis-server processes on loopback, in a temp dir, on ports
 * picked here (test/helpers/ports.ts), stopped by PID:
 * - a Redis Cluster of 3 masters and 3 replicas (`redis-cli --cluster create … --cluster-replicas 1`);
 * - a primary, a replica and 3 sentinels (`redis-server sentinel.conf --sentinel`).
 * Each gives the environment the service is started with and a way to SIGKILL the master that
 * holds a key (the queue's slot).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { pickUnusedPort } from './ports.js';
import { waitFor } from './wait.js';
import { startRedisServer, stopRedisServer } from '../queue/redis-helpers.js';

const run = promisify(execFile);

export interface RedisTopologyUnderTest {
  /** The settings that point the service at it (REDIS_CLUSTER_NODES, or REDIS_SENTINELS + REDIS_SENTINEL_NAME). */
  env: Record<string, string>;
  /** Port of the master that now holds `key`'s slot (the primary, for Sentinel). */
  masterPortOf(key: string): Promise<number>;
  /** SIGKILLs that master; resolves with its port. */
  killMasterOf(key: string): Promise<number>;
  /** Resolves once `key`'s slot has a reachable master other than `oldPort` that takes writes. */
  waitForNewMaster(key: string, oldPort: number, timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

interface Processes {
  byPort: Map<number, ChildProcess>;
  dir: string;
}

async function redisAt(port: number): Promise<Redis> {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

async function ask<T>(port: number, fn: (redis: Redis) => Promise<T>): Promise<T | undefined> {
  let redis: Redis | undefined;
  try {
    redis = await redisAt(port);
    return await fn(redis);
  } catch {
    return undefined;
  } finally {
    redis?.disconnect();
  }
}

async function stopAll(processes: Processes): Promise<void> {
  await Promise.all([...processes.byPort.values()].map((child) => stopRedisServer(child)));
  fs.rmSync(processes.dir, { recursive: true, force: true });
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * `count` cluster node ports: a node also listens on its port + 10000 (the cluster bus), so both
 * must be free and no node's bus may be another's port. Drawn from 20000-22767, so the bus ports
 * stay below the kernel's ephemeral range as pickUnusedPort's picks do (test/helpers/ports.ts).
 */
async function clusterPorts(count: number): Promise<number[]> {
  const picked: number[] = [];
  for (let attempt = 0; picked.length < count && attempt < 500; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 2768);
    const taken = picked.flatMap((p) => [p, p + 10_000]);
    if (taken.includes(port) || taken.includes(port + 10_000)) continue;
    if ((await isFree(port)) && (await isFree(port + 10_000))) picked.push(port);
  }
  if (picked.length < count) throw new Error('no free cluster ports found');
  return picked;
}

/** Ports of `count` distinct unused ports. */
async function ports(count: number): Promise<number[]> {
  const picked = new Set<number>();
  while (picked.size < count) picked.add(await pickUnusedPort());
  return [...picked];
}

/** 3 masters + 3 replicas, cluster-node-timeout 2000 ms; resolves once cluster_state is ok everywhere and every replica is in sync. */
export async function startRedisCluster(): Promise<RedisTopologyUnderTest> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-redis-cluster-'));
  const processes: Processes = { byPort: new Map(), dir };
  try {
    const nodePorts = await clusterPorts(6);
    await Promise.all(
      nodePorts.map(async (port) => {
        const child = await startRedisServer(port, [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          '2000',
          '--dir',
          dir,
        ]);
        processes.byPort.set(port, child);
      }),
    );
    await run('redis-cli', ['--cluster', 'create', ...nodePorts.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes'], {
      timeout: 30_000,
    });
    await waitFor(
      async () => {
        const states = await Promise.all(nodePorts.map((port) => ask(port, (r) => r.cluster('INFO'))));
        if (!states.every((info) => typeof info === 'string' && info.includes('cluster_state:ok'))) return false;
        const links = await Promise.all(nodePorts.map((port) => ask(port, (r) => r.info('replication'))));
        const replicas = links.filter((info) => info?.includes('role:slave'));
        return replicas.length === 3 && replicas.every((info) => info!.includes('master_link_status:up'));
      },
      { timeoutMs: 30_000, intervalMs: 200, what: 'the Redis Cluster to be ok with 3 replicas in sync' },
    );
    const masterPortOf = async (key: string): Promise<number> => {
      for (const port of processes.byPort.keys()) {
        const child = processes.byPort.get(port)!;
        if (child.exitCode !== null || child.signalCode !== null) continue;
        const found = await ask(port, async (r) => {
          const slot = await r.cluster('KEYSLOT', key);
          const slots = await r.cluster('SLOTS');
          const range = slots.find(([from, to]) => slot >= from && slot <= to);
          return range?.[2]?.[1];
        });
        if (found !== undefined) return found;
      }
      throw new Error(`no live node knows the master of ${key}`);
    };
    return {
      env: { REDIS_CLUSTER_NODES: nodePorts.map((p) => `127.0.0.1:${p}`).join(',') },
      masterPortOf,
      async killMasterOf(key) {
        const port = await masterPortOf(key);
        await stopRedisServer(processes.byPort.get(port)!);
        return port;
      },
      async waitForNewMaster(key, oldPort, timeoutMs = 20_000) {
        return waitFor(
          async () => {
            const port = await masterPortOf(key).catch(() => undefined);
            if (port === undefined || port === oldPort) return undefined;
            return (await ask(port, (r) => r.info('replication')))?.includes('role:master') ? port : undefined;
          },
          { timeoutMs, intervalMs: 100, what: `a new master for ${key}` },
        );
      },
      stop: () => stopAll(processes),
    };
  } catch (err) {
    await stopAll(processes);
    throw err;
  }
}

const SENTINEL_NAME = 'sha224d-primary';

/** A primary, a replica and 3 sentinels (quorum 2, down-after 1000 ms); resolves once the sentinels see both data nodes and each other. */
export async function startRedisSentinel(): Promise<RedisTopologyUnderTest> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-redis-sentinel-'));
  const processes: Processes = { byPort: new Map(), dir };
  try {
    const [primary, replica, ...sentinelPorts] = (await ports(5)) as [number, number, number, number, number];
    processes.byPort.set(primary, await startRedisServer(primary, ['--dir', dir]));
    processes.byPort.set(replica, await startRedisServer(replica, ['--dir', dir, '--replicaof', '127.0.0.1', String(primary)]));
    for (const port of sentinelPorts) {
      const conf = path.join(dir, `sentinel-${port}.conf`);
      fs.writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
          `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
          `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
          '',
        ].join('\n'),
      );
      const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
      processes.byPort.set(port, child);
    }
    await waitFor(
      async () => {
        const link = await ask(replica, (r) => r.info('replication'));
        if (!link?.includes('master_link_status:up')) return false;
        const views = await Promise.all(
          sentinelPorts.map((port) => ask(port, (r) => r.call('SENTINEL', 'MASTER', SENTINEL_NAME) as Promise<string[]>)),
        );
        return views.every((view) => {
          if (view === undefined) return false;
          const field = (name: string): string | undefined => view[view.indexOf(name) + 1];
          return field('num-slaves') === '1' && field('num-other-sentinels') === '2';
        });
      },
      { timeoutMs: 30_000, intervalMs: 200, what: 'the sentinels to see the replica and each other' },
    );
    const masterPortOf = async (): Promise<number> => {
      for (const port of sentinelPorts) {
        const addr = await ask(port, (r) => r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME) as Promise<[string, string]>);
        if (addr !== undefined) return Number(addr[1]);
      }
      throw new Error('no sentinel answered');
    };
    return {
      env: { REDIS_SENTINELS: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','), REDIS_SENTINEL_NAME: SENTINEL_NAME },
      masterPortOf,
      async killMasterOf() {
        const port = await masterPortOf();
        await stopRedisServer(processes.byPort.get(port)!);
        return port;
      },
      async waitForNewMaster(_key, oldPort, timeoutMs = 20_000) {
        return waitFor(
          async () => {
            const port = await masterPortOf().catch(() => undefined);
            if (port === undefined || port === oldPort) return undefined;
            return (await ask(port, (r) => r.info('replication')))?.includes('role:master') ? port : undefined;
          },
          { timeoutMs, intervalMs: 100, what: 'Sentinel to promote the replica' },
        );
      },
      stop: () => stopAll(processes),
    };
  } catch (err) {
    await stopAll(processes);
    throw err;
  }
}
