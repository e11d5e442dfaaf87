/**
 * The sweeper around a sweep pass: jittered intervals, a failure logged and tried again at the
 * next interval (never thrown out of the process), turn-taking through the Redis lock, and close.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisSweepClaim } from '../../shared/blob/sweep-lock.js';
import { startBlobSweeper, type BlobSweeper } from '../../shared/blob/sweep-schedule.js';
import { createLogger } from '../../shared/log.js';
import { BLOB_SWEEP_LOCK_KEY, namespacedRedisKey } from '../../shared/naming.js';
import { deleteKeys, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { holdsFor, waitFor } from '../helpers/wait.js';

/** A logger whose lines land in `lines` as objects. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('debug', sink), lines };
}

let sweeper: BlobSweeper | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await sweeper?.close();
  sweeper = undefined;
});

describe('startBlobSweeper', () => {
  it('waits the interval ± 25 % (by its random source) before each sweep', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const sweep = (): Promise<void> => {
      calls++;
      return Promise.resolve();
    };
    const draws = [0, 0.999_999];
    sweeper = startBlobSweeper({ intervalMs: 1000, sweep, logger: createLogger('silent'), random: () => draws.shift() ?? 0.5 });
    await vi.advanceTimersByTimeAsync(749);
    expect(calls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(1);
    // The second wait drew the top of the range: 1250 ms.
    await vi.advanceTimersByTimeAsync(1249);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    // Then the middle: 1000 ms.
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
  });

  it('logs a failed sweep and sweeps again at the next interval', async () => {
    const { logger, lines } = capturingLogger();
    let calls = 0;
    const sweep = (): Promise<void> => {
      calls++;
      return calls === 1 ? Promise.reject(new Error('S3 is down')) : Promise.resolve();
    };
    sweeper = startBlobSweeper({ intervalMs: 20, sweep, logger });
    await waitFor(() => calls >= 3, { timeoutMs: 10_000, what: 'three sweeps' });
    const failures = lines.filter((line) => line.msg === 'blob sweep failed; the next interval tries again');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 40, err: { message: 'S3 is down' } });
  });

  it('sweeps only when its claim is granted; a claim that throws is logged like a failed sweep', async () => {
    const { logger, lines } = capturingLogger();
    const answers: Array<boolean | Error> = [false, new Error('Redis is away'), true];
    let claims = 0;
    let sweeps = 0;
    const claim = (): Promise<boolean> => {
      claims++;
      const answer = answers.shift() ?? false;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    };
    sweeper = startBlobSweeper({
      intervalMs: 20,
      claim,
      sweep: () => {
        sweeps++;
        return Promise.resolve();
      },
      logger,
    });
    await waitFor(() => claims >= 4, { timeoutMs: 10_000, what: 'four claims' });
    expect(sweeps).toBe(1);
    expect(lines.filter((line) => line.msg === 'blob sweep skipped: another process sweeps this interval').length).toBeGreaterThanOrEqual(
      2,
    );
    expect(lines.filter((line) => line.msg === 'blob sweep failed; the next interval tries again')).toMatchObject([
      { err: { message: 'Redis is away' } },
    ]);
  });

  it('close aborts a sweep in progress, waits for it, and nothing runs after', async () => {
    const { logger, lines } = capturingLogger();
    let started = 0;
    let sawAbort = false;
    const sweep = (signal: AbortSignal): Promise<void> => {
      started++;
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          sawAbort = true;
          reject(signal.reason as Error);
        });
      });
    };
    const own = startBlobSweeper({ intervalMs: 20, sweep, logger });
    await waitFor(() => started === 1, { timeoutMs: 10_000, what: 'a sweep to start' });
    await Promise.all([own.close(), own.close()]);
    expect(sawAbort).toBe(true);
    await holdsFor(() => started === 1, { forMs: 100, what: 'no sweep after close' });
    expect(started).toBe(1);
    // Stopped by close: not a failure worth a warning.
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
  });

  it('refuses an interval that is not a positive integer', () => {
    for (const intervalMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => startBlobSweeper({ intervalMs, sweep: () => Promise.resolve(), logger: createLogger('silent') })).toThrow(
        new RangeError('intervalMs must be a positive integer'),
      );
    }
  });
});

describe('redisSweepClaim (real Redis)', () => {
  const prefix = freshPrefix();
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('grants one process the interval; the others are refused until the lock expires', async () => {
    const key = namespacedRedisKey(prefix, BLOB_SWEEP_LOCK_KEY);
    const workerA = redisSweepClaim(redis, key, 300);
    const workerB = redisSweepClaim(redis, key, 300);
    expect(await workerA()).toBe(true);
    expect(await workerB()).toBe(false);
    expect(await workerA()).toBe(false);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    const granted = await waitFor(() => workerB(), { what: "the claim to pass to worker B once A's hold lapsed" });
    expect(granted).toBe(true);
    expect(() => redisSweepClaim(redis, key, 0)).toThrow(new RangeError('holdMs must be a positive integer'));
  });
});
