/**
 * What realtime runs on: in memory for one node (embedded mode), on Redis when REDIS_URL is set
 * (connection counts and socket.io broadcasts across API nodes). The Redis parts are imported only
 * then, so embedded mode never loads ioredis or @socket.io/redis-adapter.
 */
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/log.js';
import { MemoryConnectionRegistry, type ConnectionRegistry } from './connection-limit.js';
import type { RealtimeOptions } from './options.js';
import type { SocketIoAdapter } from './socketio.js';

export interface RealtimeEngines {
  connectionRegistry(options: RealtimeOptions): ConnectionRegistry;
  /** Undefined: socket.io's in-memory adapter. */
  socketIoAdapter(): SocketIoAdapter | undefined;
}

const IN_MEMORY: RealtimeEngines = {
  connectionRegistry: () => new MemoryConnectionRegistry(),
  socketIoAdapter: () => undefined,
};

/** Loads the engines the configuration names; builds nothing yet (attachRealtime does, in api/realtime/index.ts). */
export async function loadRealtimeEngines(config: Pick<Config, 'redis' | 'QUEUE_PREFIX'>, logger: Logger): Promise<RealtimeEngines> {
  const url = config.redis;
  if (url === undefined) return IN_MEMORY;
  const [{ RedisConnectionRegistry }, { createRedisAdapter }] = await Promise.all([
    import('./redis-connection-registry.js'),
    import('./socketio-redis-adapter.js'),
  ]);
  return {
    connectionRegistry: (options) =>
      new RedisConnectionRegistry({
        url,
        namespace: config.QUEUE_PREFIX,
        heartbeatMs: options.connectionHeartbeatMs,
        staleMs: options.connectionStaleMs,
        logger,
      }),
    socketIoAdapter: () => createRedisAdapter(url, config, logger),
  };
}
