/**
 * Concurrent realtime connections per account across API nodes (distributed mode): the Redis
 * side of connection-limit.ts, which describes the scheme. A module of its own so that only a
 * process with REDIS_URL loads ioredis for it (engines.ts imports it dynamically).
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../shared/redis/client-factory.js';
import type { Logger } from '../../shared/log.js';
import { namespacedRedisKey, wsConnectionsRedisKey } from '../../shared/naming.js';
import { closeRedis, createRedis, failFast, type RedisTarget } from '../../shared/queue/redis-connection.js';
import { UNLIMITED, type ConnectionLease, type ConnectionRegistry } from './connection-limit.js';

// KEYS[1] the account's set; ARGV: member, staleMs, limit. 1 = acquired, 0 = at the limit.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

// KEYS: one account set per lease; ARGV[1] staleMs, ARGV[i + 1] the member in KEYS[i].
// A member dropped while this node could not reach Redis is added back: it is still open.
const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[i + 1])
  redis.call('PEXPIRE', key, ARGV[1])
end
return #KEYS
`;

type ScriptRedis = RedisClient & {
  wsAcquire(key: string, member: string, staleMs: number, limit: number): Promise<number>;
  wsHeartbeat(...args: Array<string | number>): Promise<number>;
};

export interface RedisConnectionRegistryOptions {
  url: RedisTarget;
  /** QUEUE_PREFIX namespace. */
  namespace: string | undefined;
  heartbeatMs: number;
  staleMs: number;
  logger: Logger;
}

/** At most this many leases are refreshed by one script call. */
const HEARTBEAT_BATCH = 500;

export class RedisConnectionRegistry implements ConnectionRegistry {
  private readonly redis: ScriptRedis;
  private readonly nodeId = randomUUID();
  private sequence = 0;
  /** member → account set key, for every lease this node holds. */
  private readonly held = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: RedisConnectionRegistryOptions) {
    const redis = createRedis(options.url, 'limiter', { logger: options.logger, connectionName: 'sha224d:ws-connections', lazy: true });
    redis.defineCommand('wsAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    redis.defineCommand('wsHeartbeat', { lua: HEARTBEAT });
    this.redis = redis as ScriptRedis;
    this.timer = setInterval(() => void this.heartbeat(), options.heartbeatMs);
    this.timer.unref();
  }

  async acquire(accountId: string, limit: number | null): Promise<ConnectionLease | undefined> {
    if (limit === null) return UNLIMITED;
    const key = namespacedRedisKey(this.options.namespace, wsConnectionsRedisKey(accountId));
    const member = `${this.nodeId}:${++this.sequence}`;
    const acquired = await failFast(this.redis, () => this.redis.wsAcquire(key, member, this.options.staleMs, limit));
    if (acquired !== 1) return undefined;
    this.held.set(member, key);
    return { release: () => this.release(member) };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      await Promise.all([...this.held.keys()].map((member) => this.release(member)));
      await closeRedis(this.redis);
    })();
    return this.closing;
  }

  private async release(member: string): Promise<void> {
    const key = this.held.get(member);
    if (key === undefined) return;
    this.held.delete(member);
    try {
      await failFast(this.redis, () => this.redis.zrem(key, member));
    } catch (err) {
      // The member stops counting by itself after staleMs, since nothing refreshes it any more.
      this.options.logger.warn({ err }, 'could not release a realtime connection in Redis');
    }
  }

  private async heartbeat(): Promise<void> {
    const entries = [...this.held.entries()];
    for (let i = 0; i < entries.length; i += HEARTBEAT_BATCH) {
      const batch = entries.slice(i, i + HEARTBEAT_BATCH);
      const args: Array<string | number> = [
        batch.length,
        ...batch.map(([, key]) => key),
        this.options.staleMs,
        ...batch.map(([member]) => member),
      ];
      try {
        await failFast(this.redis, () => this.redis.wsHeartbeat(...args));
      } catch (err) {
        this.options.logger.warn({ err }, 'realtime connection heartbeat failed');
        return;
      }
      // A lease released while the script ran was just added back: remove it again.
      for (const [member, key] of batch) {
        if (!this.held.has(member)) await this.redis.zrem(key, member).catch(() => undefined);
      }
    }
  }
}
