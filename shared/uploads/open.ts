import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createRedis } from '../queue/redis-connection.js';
import { MemoryResumableStore } from './memory-store.js';
import { RedisResumableStore } from './redis-store.js';
import type { ResumableStore } from './store.js';

/** Redis in distributed mode (any node serves any request of an upload), this process's memory in embedded mode. */
export function openResumableStore(config: Pick<Config, 'redis' | 'QUEUE_PREFIX' | 'UPLOAD_LOCK_MS'>, logger?: Logger): ResumableStore {
  if (config.redis === undefined) return new MemoryResumableStore(config.UPLOAD_LOCK_MS);
  const redis = createRedis(config.redis, 'producer', { logger, connectionName: 'sha224d:uploads' });
  return new RedisResumableStore(redis, config.QUEUE_PREFIX, config.UPLOAD_LOCK_MS);
}
