import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import { namespacedRedisKey, resumableLockRedisKey, resumableUploadRedisKey } from '../naming.js';
import { closeRedis, type RedisClient } from '../queue/redis-connection.js';
import { parseRecord, type ResumableRecord } from './record.js';
import type { ResumableStore } from './store.js';

/** Writes KEYS[2] (the record) only while KEYS[1] (the lock) holds ARGV[1]; the check and the write are one step. */
const COMMIT_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PXAT', ARGV[3])
return 1`;
const REMOVE_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('DEL', KEYS[1])
return 1`;
const RENEW_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;
const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * Distributed mode's records and locks, on Redis: every API node reads the same offset and hash
 * state, and a lock (SET NX PX, renewed while a PATCH runs) lets one request at a time write an
 * upload. The record key expires by itself (PXAT) a while after the upload does.
 */
export class RedisResumableStore implements ResumableStore {
  readonly outlivesProcess = true;
  private readonly connected: Promise<void>;

  constructor(
    private readonly redis: RedisClient,
    private readonly namespace: string | undefined,
    private readonly lockMs: number,
  ) {
    // The connection refuses commands until it is ready (no offline queue): the first requests of
    // a node that just started wait for it, a bounded while.
    this.connected = redis.status === 'ready' ? Promise.resolve() : readyWithin(redis, 2000);
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    await this.connected;
    return unavailableOnFailure(work);
  }

  private recordKey(id: string): string {
    return namespacedRedisKey(this.namespace, resumableUploadRedisKey(id));
  }

  private lockKey(id: string): string {
    return namespacedRedisKey(this.namespace, resumableLockRedisKey(id));
  }

  create(record: ResumableRecord, keepUntil: number): Promise<boolean> {
    return this.guarded(async () => {
      const done = await this.redis.set(this.recordKey(record.id), JSON.stringify(record), 'PXAT', keepUntil, 'NX');
      return done === 'OK';
    });
  }

  get(id: string): Promise<ResumableRecord | undefined> {
    return this.guarded(async () => {
      const text = await this.redis.get(this.recordKey(id));
      return text === null ? undefined : parseRecord(text);
    });
  }

  lock(id: string): Promise<string | undefined> {
    return this.guarded(async () => {
      const token = randomUUID();
      const done = await this.redis.set(this.lockKey(id), token, 'PX', this.lockMs, 'NX');
      return done === 'OK' ? token : undefined;
    });
  }

  renew(id: string, token: string): Promise<boolean> {
    return this.guarded(async () => (await this.redis.eval(RENEW_LUA, 1, this.lockKey(id), token, this.lockMs)) === 1);
  }

  async release(id: string, token: string): Promise<void> {
    // A release that fails leaves the lock to lapse after UPLOAD_LOCK_MS: nothing to report.
    await this.redis.eval(RELEASE_LUA, 1, this.lockKey(id), token).catch(() => undefined);
  }

  commit(record: ResumableRecord, token: string, keepUntil: number): Promise<boolean> {
    return this.guarded(async () => {
      const done = await this.redis.eval(
        COMMIT_LUA,
        2,
        this.lockKey(record.id),
        this.recordKey(record.id),
        token,
        JSON.stringify(record),
        keepUntil,
      );
      return done === 1;
    });
  }

  remove(id: string, token: string): Promise<boolean> {
    return this.guarded(async () => (await this.redis.eval(REMOVE_LUA, 2, this.lockKey(id), this.recordKey(id), token)) === 1);
  }

  close(): Promise<void> {
    return closeRedis(this.redis);
  }
}

function readyWithin(redis: RedisClient, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    redis.once('ready', done);
  });
}

/** Redis unreachable or slow: the client may retry the same request later (503 with Retry-After). */
async function unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the upload state store is unavailable', cause: err });
  }
}
