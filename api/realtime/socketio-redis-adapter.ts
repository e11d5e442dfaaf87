/**
 * socket.io's Redis adapter (distributed mode), so broadcasts and fetchSockets() span API nodes. A
 * module of its own so that only a process with REDIS_URL loads @socket.io/redis-adapter and
 * ioredis (engines.ts imports it dynamically); embedded mode keeps socket.io's in-memory adapter.
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/log.js';
import { namespacedRedisKey, SOCKET_IO_REDIS_CHANNEL } from '../../shared/naming.js';
import { closeRedis, createRedis } from '../../shared/queue/redis-connection.js';
import type { SocketIoAdapter } from './socketio.js';

/**
 * The Redis publisher: its `publish` never rejects. The adapter does not handle a rejected publish,
 * and a fail-fast connection rejects while Redis is away; a lost broadcast is the adapter's normal
 * at-most-once behaviour, an unhandled rejection would stop the process.
 */
function safePublisher(redis: Redis, logger: Logger): Redis {
  // Bound before it is replaced below.
  const publish: (channel: string, message: string | Buffer) => Promise<number> = redis.publish.bind(redis);
  const safe = (channel: string, message: string | Buffer): Promise<number> =>
    publish(channel, message).catch((err: unknown) => {
      logger.debug({ err }, 'socket.io adapter publish failed');
      return 0;
    });
  Object.assign(redis, { publish: safe });
  return redis;
}

/** The adapter over a publisher and a subscriber connection to `redisUrl`; close() ends both. */
export function createRedisAdapter(redisUrl: string, config: Pick<Config, 'QUEUE_PREFIX'>, logger: Logger): SocketIoAdapter {
  const pub = safePublisher(createRedis(redisUrl, 'producer', { logger, connectionName: 'sha224d:socket.io-pub' }), logger);
  const sub = createRedis(redisUrl, 'subscriber', { logger, connectionName: 'sha224d:socket.io-sub' });
  return {
    factory: createAdapter(pub, sub, { key: namespacedRedisKey(config.QUEUE_PREFIX, SOCKET_IO_REDIS_CHANNEL) }),
    close: async () => {
      await Promise.all([closeRedis(pub), closeRedis(sub)]);
    },
  };
}
