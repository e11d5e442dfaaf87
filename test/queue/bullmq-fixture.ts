/**
 * What the BullMQ-only suites share: the machine's Redis (a client for reading keys), a blob
 * directory, and a fresh key namespace per test, dropped with everything in `closers` after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { QUEUE_NAMES } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import type { Metrics } from '../../shared/metrics/catalogue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import type { JobHandlers, WorkerPool } from '../../shared/queue/types.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from './redis-helpers.js';

export interface BullMqFixture {
  readonly blobs: LocalDiskBlobStore;
  readonly redis: Redis;
  /** Run in reverse order after each test. */
  readonly closers: Array<() => Promise<void>>;
  /** A namespace of its own, dropped after the test. */
  readonly namespace: () => string;
  /** Workers for every queue of `prefix` (concurrency 4, blobs deleted at once), closed after the test. */
  readonly workersOn: (prefix: string, handlers: JobHandlers, metrics?: Metrics) => Promise<WorkerPool>;
}

export function useBullMqFixture(tempPrefix: string): BullMqFixture {
  let blobDir: string | undefined;
  let blobs: LocalDiskBlobStore | undefined;
  let redis: Redis | undefined;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    blobDir = await mkdtemp(path.join(tmpdir(), tempPrefix));
    blobs = new LocalDiskBlobStore(blobDir);
    redis = new Redis(SHARED_REDIS_URL);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    redis?.disconnect();
    if (blobDir !== undefined) await rm(blobDir, { recursive: true, force: true });
  });

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useBullMqFixture: used outside a test');
    return value;
  };
  return {
    get blobs() {
      return ready(blobs);
    },
    get redis() {
      return ready(redis);
    },
    closers,
    namespace: () => {
      const prefix = freshPrefix();
      closers.push(() => dropPrefix(SHARED_REDIS_URL, prefix));
      return prefix;
    },
    workersOn: async (prefix, handlers, metrics) => {
      const pool = await startBullMqWorkers({
        connection: SHARED_REDIS_URL,
        handlers,
        blobs: ready(blobs),
        queues: QUEUE_NAMES,
        concurrency: 4,
        logger: createLogger('silent'),
        blobRetentionMs: 0,
        prefix,
        ...(metrics === undefined ? {} : { metrics }),
      });
      closers.push(() => pool.close());
      return pool;
    },
  };
}
