/**
 * Distributed mode's bulk store: one Redis hash per job, changed only by the scripts below, so a
 * chunk finishing on any worker, a cancel on any API node and the per-account bound stay exact.
 * A chunk is counted once (field `c:<index>`), however often it is retried; `p:<index>` is the size of its result part.
 */
import { ServiceError } from '../errors.js';
import { bulkActiveRedisKey, bulkRedisKey, namespacedRedisKey } from '../naming.js';
import { closeRedis, type RedisClient } from '../queue/redis-connection.js';
import type { BulkRecord, BulkSource, BulkState, ChunkSummary } from './model.js';
import { UNFINISHED_TTL_MS, type BulkStore } from './store.js';

// KEYS: record, active set. ARGV: id, maxActive, ttl, then the record's fields.
const OPEN_LUA = `
local ids = redis.call('SMEMBERS', KEYS[2])
local prefix = string.sub(KEYS[1], 1, string.len(KEYS[1]) - string.len(ARGV[1]))
local active = 0
for _, id in ipairs(ids) do
  local state = redis.call('HGET', prefix .. id, 'state')
  if state == 'receiving' or state == 'running' then active = active + 1 else redis.call('SREM', KEYS[2], id) end
end
if active >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

// KEYS: record, active set. ARGV: index, done, failed, bytes, now, retention, id, part bytes.
const CHUNK_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HSETNX', KEYS[1], 'c:' .. ARGV[1], 1) == 0 then return 1 end
redis.call('HSET', KEYS[1], 'p:' .. ARGV[1], ARGV[8])
redis.call('HINCRBY', KEYS[1], 'chunksDone', 1)
redis.call('HINCRBY', KEYS[1], 'done', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'failed', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'bytes', ARGV[4])
local f = redis.call('HMGET', KEYS[1], 'state', 'chunksDone', 'chunks')
if f[1] == 'running' and tonumber(f[2]) >= tonumber(f[3]) then
  redis.call('HSET', KEYS[1], 'state', 'completed', 'finishedAt', ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('SREM', KEYS[2], ARGV[7])
end
return 1`;

// KEYS: record, active set. ARGV: now, retention, id.
const CANCEL_LUA = `
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'receiving' or state == 'running' then
  redis.call('HSET', KEYS[1], 'state', 'cancelled', 'finishedAt', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('SREM', KEYS[2], ARGV[3])
end
return 1`;

const NUMBER_FIELDS = ['total', 'chunks', 'chunksDone', 'done', 'failed', 'bytes', 'createdAt', 'startedAt', 'finishedAt'] as const;

export class RedisBulkStore implements BulkStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly namespace: string | undefined,
    private readonly retentionMs: number,
  ) {}

  private key(id: string): string {
    return namespacedRedisKey(this.namespace, bulkRedisKey(id));
  }

  private activeKey(accountId: string): string {
    return namespacedRedisKey(this.namespace, bulkActiveRedisKey(accountId));
  }

  async open(
    input: { id: string; accountId: string; source: BulkSource; createdAt: number },
    maxActive: number,
  ): Promise<BulkRecord | undefined> {
    const record: BulkRecord = { ...input, state: 'receiving', total: 0, chunks: 0, chunksDone: 0, done: 0, failed: 0, bytes: 0 };
    const fields = Object.entries(record).flatMap(([k, v]) => [k, String(v)]);
    const opened = await this.guarded(() =>
      this.redis.eval(OPEN_LUA, 2, this.key(input.id), this.activeKey(input.accountId), input.id, maxActive, UNFINISHED_TTL_MS, ...fields),
    );
    return opened === 1 ? record : undefined;
  }

  async start(id: string, total: number, chunks: number, now: number): Promise<void> {
    await this.guarded(() => this.redis.hset(this.key(id), { state: 'running', total, chunks, startedAt: now }));
  }

  async discard(id: string): Promise<void> {
    const record = await this.get(id);
    await this.guarded(() => this.redis.del(this.key(id)));
    if (record) await this.guarded(() => this.redis.srem(this.activeKey(record.accountId), id));
  }

  async get(id: string): Promise<BulkRecord | undefined> {
    const raw = await this.guarded(() => this.redis.hgetall(this.key(id)));
    if (raw.id === undefined || raw.accountId === undefined) return undefined;
    const record: BulkRecord = {
      id: raw.id,
      accountId: raw.accountId,
      source: raw.source as BulkSource,
      state: raw.state as BulkState,
      total: 0,
      chunks: 0,
      chunksDone: 0,
      done: 0,
      failed: 0,
      bytes: 0,
      createdAt: 0,
    };
    for (const field of NUMBER_FIELDS) {
      const value = raw[field];
      if (value !== undefined) record[field] = Number(value);
    }
    return record;
  }

  async chunkFinished(id: string, index: number, summary: ChunkSummary, now: number): Promise<BulkRecord | undefined> {
    const record = await this.get(id);
    if (record === undefined) return undefined;
    await this.guarded(() =>
      this.redis.eval(
        CHUNK_LUA,
        2,
        this.key(id),
        this.activeKey(record.accountId),
        index,
        summary.done,
        summary.failed,
        summary.bytes,
        now,
        this.retentionMs,
        id,
        summary.partBytes,
      ),
    );
    return this.get(id);
  }

  async partSizes(id: string, chunks: number): Promise<Array<number | undefined>> {
    if (chunks === 0) return [];
    const fields = Array.from({ length: chunks }, (_, index) => `p:${index}`);
    const sizes = await this.guarded(() => this.redis.hmget(this.key(id), ...fields));
    return sizes.map((size) => (size === null ? undefined : Number(size)));
  }

  async cancel(id: string, now: number): Promise<BulkRecord | undefined> {
    const record = await this.get(id);
    if (record === undefined) return undefined;
    await this.guarded(() => this.redis.eval(CANCEL_LUA, 2, this.key(id), this.activeKey(record.accountId), now, this.retentionMs, id));
    return this.get(id);
  }

  close(): Promise<void> {
    return closeRedis(this.redis);
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the bulk job store is unavailable', cause: err });
    }
  }
}
