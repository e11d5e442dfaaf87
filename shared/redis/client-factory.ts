/**
 * Builds the ioredis client of a topology from a role's options (shared/queue/redis-connection.ts
 * holds the roles): a Redis on a URL, a Redis that finds its primary through Sentinel, or a
 * Cluster. docs/operating.md "Redis topologies"; docs/decisions.md "Redis topologies".
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTopology } from './topology.js';

export type RedisClient = Redis | Cluster;

/**
 * A node that became a replica (failover) answers writes with READONLY: reconnect, so a Sentinel
 * client asks the sentinels for the new primary (and a worker's command is sent again there).
 */
export function reconnectOnReadonly(err: Error): boolean | 1 | 2 {
  return err.message.startsWith('READONLY') ? 2 : false;
}

export interface ClientBuild {
  /** The role's options (timeouts, offline queue, retries, connection name). */
  options: RedisOptions;
  retryStrategy: (times: number) => number | null;
  /** Pub/sub on a cluster goes through sharded subscribers (SSUBSCRIBE to each slot's master). */
  sharded: boolean;
}

export function buildRedisClient(topology: RedisTopology, build: ClientBuild): RedisClient {
  const { options, retryStrategy } = build;
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, { ...options, retryStrategy, reconnectOnError: reconnectOnReadonly });
    case 'sentinel':
      return new Redis({
        ...options,
        sentinels: topology.sentinels,
        name: topology.name,
        ...(topology.password === undefined ? {} : { password: topology.password }),
        ...(topology.sentinelPassword === undefined ? {} : { sentinelPassword: topology.sentinelPassword }),
        // Without it a client goes on writing to a demoted primary until Sentinel reconfigures it,
        // and those writes are lost; with it the client follows +switch-master at once.
        failoverDetector: true,
        retryStrategy,
        sentinelRetryStrategy: retryStrategy,
        reconnectOnError: reconnectOnReadonly,
      });
    case 'cluster': {
      // The offline queue and lazy connecting are the Cluster's own options, not its nodes'.
      const { enableOfflineQueue, lazyConnect, ...nodeOptions } = options;
      const clusterOptions: ClusterOptions = {
        redisOptions: {
          ...nodeOptions,
          ...(topology.password === undefined ? {} : { password: topology.password }),
          reconnectOnError: reconnectOnReadonly,
        },
        enableOfflineQueue: enableOfflineQueue ?? true,
        lazyConnect: lazyConnect ?? false,
        clusterRetryStrategy: retryStrategy,
        // MOVED/ASK are followed by ioredis; a slot whose master is failing over is asked again.
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 200,
        retryDelayOnTryAgain: 200,
        slotsRefreshTimeout: 1000,
        // A promoted replica is found by the periodic refresh too (a dead master's slots answer no MOVED).
        slotsRefreshInterval: 1000,
        shardedSubscribers: build.sharded,
      };
      return new Cluster(topology.nodes, clusterOptions);
    }
  }
}

/** True for a client of a Redis Cluster. */
export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/** True for a client that reaches its primary through Sentinel (a sentinel rejects QUIT: disconnect it). */
export function isSentinelClient(client: RedisClient): boolean {
  return !isCluster(client) && (client.options.sentinels?.length ?? 0) > 0;
}
