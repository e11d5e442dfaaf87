/**
 * socket.io's Redis adapter (distributed mode), so broadcasts and fetchSockets() span API nodes. A
 * module of its own so that only a process with REDIS_URL loads @socket.io/redis-adapter and
 * ioredis (engines.ts imports it dynamically); embedded mode keeps socket.io's in-memory adapter.
 */
import type { RedisClient } from '../../shared/redis/client-factory.js';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/log.js';
import { namespacedRedisKey, SOCKET_IO_REDIS_CHANNEL } from '../../shared/naming.js';
import { closeRedis, createRedis, type RedisTarget } from '../../shared/queue/redis-connection.js';
import { isCluster } from '../../shared/redis/client-factory.js';
import type { SocketIoAdapter } from './socketio.js';

/**
 * The Redis publisher: its `publish` never rejects. The adapter does not handle a rejected publish,
 * and a fail-fast connection rejects while Redis is away; a lost broadcast is the adapter's normal
 * at-most-once behaviour, an unhandled rejection would stop the process.
 */
function safePublisher(redis: RedisClient, logger: Logger): RedisClient {
  // Bound before they are replaced below; SPUBLISH is the sharded adapter's (a cluster).
  const publish: (channel: string, message: string | Buffer) => Promise<unknown> = redis.publish.bind(redis);
  const spublish: (channel: string, message: string | Buffer) => Promise<unknown> = redis.spublish.bind(redis);
  const safe =
    (send: (channel: string, message: string | Buffer) => Promise<unknown>) =>
    (channel: string, message: string | Buffer): Promise<unknown> =>
      send(channel, message).catch((err: unknown) => {
        logger.debug({ err }, 'socket.io adapter publish failed');
        return 0;
      });
  Object.assign(redis, { publish: safe(publish), spublish: safe(spublish) });
  return redis;
}

/** The adapter over a publisher and a subscriber connection to `redisUrl`; close() ends both. */
export function createRedisAdapter(redisUrl: RedisTarget, config: Pick<Config, 'QUEUE_PREFIX'>, logger: Logger): SocketIoAdapter {
  const pub = safePublisher(createRedis(redisUrl, 'producer', { logger, connectionName: 'sha224d:socket.io-pub' }), logger);
  const sub = createRedis(redisUrl, 'subscriber', { logger, connectionName: 'sha224d:socket.io-sub' });
  const channel = namespacedRedisKey(config.QUEUE_PREFIX, SOCKET_IO_REDIS_CHANNEL);
  return {
    // The connections open at start; the adapter's package is imported when socket.io is built, on
    // its first request: an API node's cold start loaded it for nothing (docs/decisions.md "Speed").
    factory: async () => {
      const { createAdapter, createShardedAdapter } = await import('@socket.io/redis-adapter');
      // On a cluster, sharded pub/sub (Redis ≥ 7): the subscriber is a Cluster with shardedSubscribers
      // (createRedis's subscriber role), and every channel carries QUEUE_PREFIX's hash tag, so one slot.
      return isCluster(sub) ? createShardedAdapter(pub, sub, { channelPrefix: channel }) : createAdapter(pub, sub, { key: channel });
    },
    close: async () => {
      await Promise.all([closeRedis(pub), closeRedis(sub)]);
    },
  };
}
