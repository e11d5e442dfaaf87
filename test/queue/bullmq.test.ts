/** BullMQ-only behaviour: retries, stalled jobs, cross-node events, job size, retention, option checks. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import type { ServiceError } from '../../shared/errors.js';
import { QUEUE_NAMES, type HashJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { bullQueueName } from '../../shared/naming.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import type { WorkerPool } from '../../shared/queue/types.js';
import { finished } from './contract.js';
import { createTestHandlers, digestOf } from './handlers.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from './redis-helpers.js';

const connection = SHARED_REDIS_URL;
const logger = createLogger('silent');
const prefix = freshPrefix();
const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const accountId = 'acct-bullmq';
const ATTEMPTS = 3;

let blobDir: string;
let blobs: LocalDiskBlobStore;
const test = createTestHandlers();
let queue: BullMqJobQueue;
let workers: WorkerPool;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  blobDir = await mkdtemp(path.join(tmpdir(), 'bullmq-test-'));
  blobs = new LocalDiskBlobStore(blobDir);
  queue = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix, attempts: ATTEMPTS, backoffMs: 20 });
  workers = await startBullMqWorkers({
    connection,
    handlers: test.handlers,
    blobs,
    queues: QUEUE_NAMES,
    concurrency: 8,
    logger,
    blobRetentionMs: 0,
    prefix,
  });
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

afterAll(async () => {
  await workers.close();
  await queue.close();
  await dropPrefix(connection, prefix);
  await rm(blobDir, { recursive: true, force: true });
});

async function bullJob(name: (typeof QUEUE_NAMES)[number], id: string, namespace = prefix) {
  const redis = new Redis(connection);
  const raw = new Queue(bullQueueName(name), { connection: redis, prefix: namespace });
  try {
    return await raw.getJob(id);
  } finally {
    await raw.close();
    redis.disconnect();
  }
}

describe('BullMQ retries', () => {
  it('a permanent error fails at the first attempt (UnrecoverableError)', async () => {
    const data = `invalid:${randomUUID()}`;
    const { id } = await queue.submit('hash', hash(data), { accountId });
    expect((await finished(queue, id)).error?.code).toBe('INVALID_INPUT');
    expect(test.calls.get(data)).toBe(1);
    expect((await bullJob('hash', id))?.attemptsMade).toBe(1);
  });

  it('a final code with a 5xx status (URL_FETCH_FAILED) also fails at the first attempt: the catalog decides, not the status class', async () => {
    const data = `upstream:${randomUUID()}`;
    const { id } = await queue.submit('hash', hash(data), { accountId });
    expect((await finished(queue, id)).error).toEqual({
      code: 'URL_FETCH_FAILED',
      message: 'Fetching the URL failed',
      details: 'upstream status 404',
    });
    expect(test.calls.get(data)).toBe(1);
    expect((await bullJob('hash', id))?.attemptsMade).toBe(1);
  });

  it('a transient error is retried with backoff and then succeeds', async () => {
    const data = `flaky:2:${randomUUID()}`;
    await expect(queue.run('hash', hash(data), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    expect(test.calls.get(data)).toBe(3);
  });

  it('a transient error that persists fails after `attempts` with its own code', async () => {
    const data = `flaky:99:${randomUUID()}`;
    await expect(queue.run('hash', hash(data), { accountId, timeoutMs: 10_000 })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: 'try again',
    });
    expect(test.calls.get(data)).toBe(ATTEMPTS);
  });
});

describe('BullMQ jobs', () => {
  it('job data is small: a file job carries the blob reference, never the bytes', async () => {
    const key = `uploads/${accountId}/${randomUUID()}`;
    const blob = await blobs.put(key, Readable.from([Buffer.alloc(256 * 1024, 7)]), { maxBytes: 1024 * 1024 });
    const { id } = await queue.submit('file', { blob, filename: 'a.bin', chunkSize: 65536, output: 'hex' }, { accountId });
    await finished(queue, id);
    const raw = new Redis(connection);
    try {
      const stored = await raw.hget(`${prefix}:${bullQueueName('file')}:${id}`, 'data');
      expect(stored).toContain(key);
      expect(stored!.length).toBeLessThan(300);
      const returned = await raw.hget(`${prefix}:${bullQueueName('file')}:${id}`, 'returnvalue');
      expect(returned!.length).toBeLessThan(200);
    } finally {
      raw.disconnect();
    }
  });

  it('job ids are random UUIDs and locate the job on their own (any queue)', async () => {
    const { id } = await queue.submit(
      'file',
      { blob: { key: 'uploads/x/none', size: 0 }, filename: 'none', chunkSize: 1, output: 'hex' },
      { accountId },
    );
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const record = await finished(queue, id);
    expect(record).toMatchObject({ id, kind: 'file', accountId, state: 'failed' });
    expect(record.error?.code).toBe('NOT_FOUND');
    // Without the owner key the job is still found.
    const raw = new Redis(connection);
    await raw.del(`${prefix}:sha224d:job:${id}`);
    raw.disconnect();
    expect((await queue.get(id))?.state).toBe('failed');
  });

  it('a job running longer than lockDuration keeps its lock (async handler) and runs once', async () => {
    const slowPrefix = freshPrefix();
    const local = createTestHandlers();
    const producer = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix: slowPrefix });
    const pool = await startBullMqWorkers({
      connection,
      handlers: local.handlers,
      blobs,
      queues: ['hash'],
      concurrency: 1,
      logger,
      blobRetentionMs: 0,
      prefix: slowPrefix,
      lockDurationMs: 1000,
      stalledIntervalMs: 1000,
    });
    closers.push(async () => {
      await pool.close();
      await producer.close();
      await dropPrefix(connection, slowPrefix);
    });
    const data = `sleep:3500:${randomUUID()}`;
    await expect(producer.run('hash', hash(data), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    expect(local.calls.get(data)).toBe(1);
  });

  it('a worker killed mid-job (kill -9) has its job picked up by another worker', async () => {
    const stallPrefix = freshPrefix();
    const producer = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix: stallPrefix });
    const fixture = path.join(import.meta.dirname, 'fixtures', 'hanging-worker.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, connection, stallPrefix], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pools: WorkerPool[] = [];
    closers.push(async () => {
      child.kill('SIGKILL');
      for (const pool of pools) await pool.close();
      await producer.close();
      await dropPrefix(connection, stallPrefix);
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`hanging worker exited with ${code}`)));
    });
    const data = `taken-by-the-dead-${randomUUID()}`;
    const { id } = await producer.submit('hash', hash(data), { accountId });
    await expect.poll(async () => (await producer.get(id))?.state, { timeout: 10_000 }).toBe('active');
    child.kill('SIGKILL');

    const local = createTestHandlers();
    pools.push(
      await startBullMqWorkers({
        connection,
        handlers: local.handlers,
        blobs,
        queues: ['hash'],
        concurrency: 1,
        logger,
        blobRetentionMs: 0,
        prefix: stallPrefix,
        lockDurationMs: 1000,
        stalledIntervalMs: 1000,
      }),
    );
    const record = await finished(producer, id, 15_000);
    expect(record).toMatchObject({ state: 'completed', result: digestOf(data) });
    expect(local.calls.get(data)).toBe(1);
  });

  /**
   * Two hanging workers take the job in turn and are killed with SIGKILL; then a real pool runs.
   * `maxStalledCount` undefined → every worker uses the default limit.
   */
  async function jobWhoseWorkersDieTwice(maxStalledCount: number | undefined) {
    const stallPrefix = freshPrefix();
    const producer = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix: stallPrefix });
    const fixture = path.join(import.meta.dirname, 'fixtures', 'hanging-worker.ts');
    const children: ChildProcess[] = [];
    const pools: WorkerPool[] = [];
    closers.push(async () => {
      for (const child of children) child.kill('SIGKILL');
      for (const pool of pools) await pool.close();
      await producer.close();
      await dropPrefix(connection, stallPrefix);
    });
    const limitArgs = maxStalledCount === undefined ? [] : [String(maxStalledCount)];
    const startHanging = async (): Promise<ChildProcess> => {
      const child = spawn(process.execPath, ['--import', 'tsx', fixture, connection, stallPrefix, 'file', ...limitArgs], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`hanging worker exited with ${code}`)));
      });
      return child;
    };
    const seen: string[] = [];
    producer.onFinished((jobId) => seen.push(jobId));
    const key = `uploads/${accountId}/${randomUUID()}`;
    const blob = await blobs.put(key, Readable.from([Buffer.from('doomed')]), { maxBytes: 100 });

    const first = await startHanging();
    const { id } = await producer.submit('file', { blob, filename: 'doomed', chunkSize: 1024, output: 'hex' }, { accountId });
    await expect.poll(async () => (await producer.get(id))?.state, { timeout: 10_000 }).toBe('active');
    first.kill('SIGKILL');
    // The second worker's stalled check moves the job back to wait, then it takes the job and hangs.
    const second = await startHanging();
    await expect.poll(async () => (await bullJob('file', id, stallPrefix))?.attemptsStarted, { timeout: 10_000, interval: 100 }).toBe(2);
    expect((await producer.get(id))?.state).toBe('active');
    second.kill('SIGKILL');

    const local = createTestHandlers();
    pools.push(
      await startBullMqWorkers({
        connection,
        handlers: local.handlers,
        blobs,
        queues: ['file'],
        concurrency: 1,
        logger,
        blobRetentionMs: 0,
        prefix: stallPrefix,
        lockDurationMs: 1000,
        stalledIntervalMs: 1000,
        ...(maxStalledCount === undefined ? {} : { maxStalledCount }),
      }),
    );
    const record = await finished(producer, id, 15_000);
    return { id, key, record, seen, calls: local.calls };
  }

  it('a job whose workers die twice fails when the stalled limit is 1, is announced, and its blob is deleted', async () => {
    const { id, key, record, seen, calls } = await jobWhoseWorkersDieTwice(1);
    expect(record.state).toBe('failed');
    expect(record.error?.code).toBe('INTERNAL_ERROR');
    expect(calls.get(key)).toBeUndefined();
    await expect.poll(() => seen.includes(id), { timeout: 5000 }).toBe(true);
    await expect
      .poll(
        () =>
          blobs.get(key).then(
            () => 'present',
            (err: ServiceError) => err.code,
          ),
        { timeout: 5000 },
      )
      .toBe('NOT_FOUND');
  });

  it('with the default stalled limit (3), a job whose workers die twice completes', async () => {
    const { key, record, calls } = await jobWhoseWorkersDieTwice(undefined);
    expect(record).toMatchObject({ state: 'completed', result: { digest: createHash('sha224').update('doomed').digest('hex'), size: 6 } });
    expect(calls.get(key)).toBe(1);
  });

  it('a lost job-finished message only delays run: it reads the job state itself (1 s, then backoff)', async () => {
    const deaf = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix });
    closers.push(() => deaf.close());
    await deaf.ping();
    // Drop every message this producer would get, as a pub/sub outage would.
    await (deaf as unknown as { subscriber: Redis }).subscriber.unsubscribe();
    const data = `unheard-${randomUUID()}`;
    const started = Date.now();
    await expect(deaf.run('hash', hash(data), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('onFinished fires on every API node, and any node can read the job', async () => {
    const otherNode = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix });
    closers.push(() => otherNode.close());
    await otherNode.ping();
    const seen: string[] = [];
    otherNode.onFinished((id) => seen.push(id));
    await sleep(100); // the other node's subscription is in place
    const { id } = await queue.submit('hash', hash(`cross-${randomUUID()}`), { accountId });
    await expect.poll(() => seen.includes(id), { timeout: 5000 }).toBe(true);
    expect((await otherNode.get(id))?.state).toBe('completed');
  });

  it("a finished job's owner key expires with the job (retentionMs), not a day after it", async () => {
    const completed = (await queue.submit('hash', hash(`owned-${randomUUID()}`), { accountId })).id;
    const failed = (
      await queue.submit('file', { blob: { key: 'uploads/x/none', size: 0 }, filename: 'none', chunkSize: 1, output: 'hex' }, { accountId })
    ).id;
    const raw = new Redis(connection);
    try {
      for (const id of [completed, failed]) {
        await finished(queue, id);
        // Set at submission to outlive any time queued: the retention plus a day, until the worker's announcement.
        await expect.poll(() => raw.pttl(`${prefix}:sha224d:job:${id}`), { timeout: 5000 }).toBeLessThanOrEqual(60_000);
        expect(await raw.pttl(`${prefix}:sha224d:job:${id}`)).toBeGreaterThan(0);
      }
    } finally {
      raw.disconnect();
    }
  });

  it('finished jobs are removed once older than retentionMs', async () => {
    const short = new BullMqJobQueue({ connection, retentionMs: 1000, logger, prefix });
    closers.push(() => short.close());
    const { id } = await short.submit('hash', hash(`old-${randomUUID()}`), { accountId });
    await finished(short, id);
    await sleep(2100);
    // BullMQ evicts aged jobs when a later job of the queue finishes.
    await short.run('hash', hash(`new-${randomUUID()}`), { accountId, timeoutMs: 5000 });
    await expect.poll(() => short.get(id), { timeout: 5000 }).toBeUndefined();
  });
});

describe('option checks (before any I/O)', () => {
  it('the producer refuses bad options, naming them', () => {
    expect(() => new BullMqJobQueue({ connection: 'http://x', retentionMs: 60_000, logger })).toThrow(/REDIS_URL/);
    expect(() => new BullMqJobQueue({ connection, retentionMs: 10, logger })).toThrow(/retentionMs/);
    expect(() => new BullMqJobQueue({ connection, retentionMs: 60_000, logger, attempts: 0 })).toThrow(/attempts/);
    expect(() => new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix: 'a:b' })).toThrow(/prefix/);
  });

  it('the worker pool refuses bad options, naming them', async () => {
    const base = { connection, handlers: test.handlers, blobs, logger, blobRetentionMs: 0 };
    await expect(startBullMqWorkers({ ...base, queues: [], concurrency: 1 })).rejects.toThrow(/queues/);
    await expect(startBullMqWorkers({ ...base, queues: ['nope' as 'hash'], concurrency: 1 })).rejects.toThrow(/unknown queue "nope"/);
    await expect(startBullMqWorkers({ ...base, queues: ['hash'], concurrency: 0 })).rejects.toThrow(/concurrency/);
    await expect(startBullMqWorkers({ ...base, queues: ['hash'], concurrency: 1, blobRetentionMs: -1 })).rejects.toThrow(/blobRetentionMs/);
    await expect(startBullMqWorkers({ ...base, queues: ['hash'], concurrency: 1, backoffMaxMs: -1 })).rejects.toThrow(/backoffMaxMs/);
    await expect(startBullMqWorkers({ ...base, queues: ['hash'], concurrency: 1, maxStalledCount: 1.5 })).rejects.toThrow(
      /maxStalledCount/,
    );
  });

  it('run refuses a non-positive timeout', async () => {
    await expect(queue.run('hash', hash('x'), { accountId, timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
  });

  it('close is idempotent and returns the same promise', async () => {
    const producer = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix });
    const pool = await startBullMqWorkers({
      connection,
      handlers: test.handlers,
      blobs,
      queues: ['url'],
      concurrency: 1,
      logger,
      blobRetentionMs: 0,
      prefix,
    });
    const [a, b] = [producer.close(), producer.close()];
    expect(a).toBe(b);
    const [c, d] = [pool.close(), pool.close()];
    expect(c).toBe(d);
    await Promise.all([a, c]);
    await expect(producer.ping()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
