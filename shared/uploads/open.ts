import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { MemoryResumableStore } from './memory-store.js';
import type { ResumableStore } from './store.js';

/**
 * Redis in distributed mode (any node serves any request of an upload), this process's memory in
 * embedded mode. The Redis store and its client are loaded on the first upload request, so embedded
 * mode never loads a Redis client and a distributed node's start does not wait for this one
 * (test/deploy/bundle-imports.test.ts).
 */
export function openResumableStore(config: Pick<Config, 'redis' | 'QUEUE_PREFIX' | 'UPLOAD_LOCK_MS'>, logger?: Logger): ResumableStore {
  const topology = config.redis;
  if (topology === undefined) return new MemoryResumableStore(config.UPLOAD_LOCK_MS);
  let opened: Promise<ResumableStore> | undefined;
  const store = (): Promise<ResumableStore> =>
    (opened ??= Promise.all([import('../queue/redis-connection.js'), import('./redis-store.js')]).then(
      ([{ createRedis }, { RedisResumableStore }]) =>
        new RedisResumableStore(
          createRedis(topology, 'producer', { logger, connectionName: 'sha224d:uploads' }),
          config.QUEUE_PREFIX,
          config.UPLOAD_LOCK_MS,
        ),
    ));
  return {
    outlivesProcess: true,
    create: async (record, keepUntil) => (await store()).create(record, keepUntil),
    get: async (id) => (await store()).get(id),
    lock: async (id) => (await store()).lock(id),
    renew: async (id, token) => (await store()).renew(id, token),
    release: async (id, token) => (await store()).release(id, token),
    commit: async (record, token, keepUntil) => (await store()).commit(record, token, keepUntil),
    remove: async (id, token) => (await store()).remove(id, token),
    // Nothing to close if no request ever opened it.
    close: async () => (opened === undefined ? undefined : (await opened).close()),
  };
}
