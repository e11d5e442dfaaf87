import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { mapState, parseFailedReason } from '../../shared/queue/bullmq-wire.js';
import {
  createRedis,
  isRedisConnectionError,
  mapRedisError,
  reconnectDelay,
  RECONNECT_CAP_MS,
} from '../../shared/queue/redis-connection.js';

describe('redis-connection', () => {
  it('reconnects with a short capped backoff (Redis returning is noticed within ~1 s)', () => {
    expect(reconnectDelay(1)).toBe(100);
    expect(reconnectDelay(3)).toBe(400);
    expect(Math.max(...Array.from({ length: 1000 }, (_, i) => reconnectDelay(i)))).toBe(RECONNECT_CAP_MS);
  });

  it('tells connection failures from command errors', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    for (const err of [
      refused,
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      new Error('Connection is closed.'),
      new Error('Command timed out'),
    ]) {
      expect(isRedisConnectionError(err), err.message).toBe(true);
      expect(mapRedisError(err)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    }
    const wrongType = new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(isRedisConnectionError(wrongType)).toBe(false);
    expect(mapRedisError(wrongType)).toBe(wrongType);
    const own = new ServiceError('CONFLICT');
    expect(mapRedisError(own)).toBe(own);
  });

  it('a lazy connection opens on its first command, which is answered; once ready it fails fast like its role', async () => {
    const key = `s2lazy:${process.pid}:${Date.now()}`;
    const redis = createRedis('redis://127.0.0.1:6379', 'producer', { lazy: true, connectionName: 'sha224d:test-lazy' });
    try {
      expect(redis.status).toBe('wait');
      expect(redis.options.enableOfflineQueue).toBe(true);
      expect(await redis.set(key, 'v', 'EX', 10)).toBe('OK');
      expect(await redis.get(key)).toBe('v');
      expect(redis.options.enableOfflineQueue).toBe(false);
      await redis.del(key);
    } finally {
      redis.disconnect();
    }
  });

  it('a lazy connection to a Redis that is away fails its first command within the role budget', async () => {
    const redis = createRedis('redis://127.0.0.1:1', 'producer', { lazy: true });
    try {
      const started = Date.now();
      const err = await redis.get('k').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isRedisConnectionError(err)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a non-redis URL', () => {
    expect(() => createRedis('http://127.0.0.1:6379', 'producer')).toThrow(/REDIS_URL/);
  });
});

describe('bullmq wire format', () => {
  it('reads a failedReason back as the public job error; anything else is INTERNAL_ERROR', () => {
    expect(parseFailedReason(JSON.stringify({ code: 'INVALID_INPUT', message: 'bad', details: 'field: data' }))).toEqual({
      code: 'INVALID_INPUT',
      message: 'bad',
      details: 'field: data',
    });
    expect(parseFailedReason(JSON.stringify({ code: 'NOT_FOUND', message: 'gone' }))).toEqual({ code: 'NOT_FOUND', message: 'gone' });
    for (const reason of [undefined, '', 'job stalled more than allowable limit', '{"code":1}', 'null']) {
      expect(parseFailedReason(reason)).toEqual({ code: 'INTERNAL_ERROR', message: 'Internal error' });
    }
  });

  it('maps BullMQ states onto queued/active/completed/failed', () => {
    expect(['waiting', 'delayed', 'prioritized', 'waiting-children', 'unknown'].map(mapState)).toEqual(Array(5).fill('queued'));
    expect(['active', 'completed', 'failed'].map(mapState)).toEqual(['active', 'completed', 'failed']);
  });
});
