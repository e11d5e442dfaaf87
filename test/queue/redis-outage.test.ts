/**
 * Against a private redis-server: with Redis stopped the producer answers
 * SERVICE_UNAVAILABLE within 2 s (no hanging), and serves again within 5 s of Redis returning.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { ServiceError } from '../../shared/errors.js';
import type { HashJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import { RECONNECT_CAP_MS, reconnectDelay } from '../../shared/queue/redis-connection.js';
import type { WorkerPool } from '../../shared/queue/types.js';
import { pickUnusedPort } from '../helpers/ports.js';
import { stallFor, waitFor } from '../helpers/wait.js';
import { createTestHandlers, digestOf } from './handlers.js';
import { startPrivateRedis, startRedisServer, stopRedisServer } from './redis-helpers.js';

const logger = createLogger('silent');
const handlers = createTestHandlers();
const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const accountId = 'acct-outage';

/** How long a client keeps failing before its reconnect delay reaches the cap (100 + 200 + 400 + 800 ms). */
function msUntilBackoffCap(): number {
  let total = 0;
  for (let attempt = 1; reconnectDelay(attempt) < RECONNECT_CAP_MS; attempt++) total += reconnectDelay(attempt);
  return total;
}

let port: number;
let url: string;
let server: ChildProcess;
let blobDir: string;
let queue: BullMqJobQueue;
let workers: WorkerPool;

beforeAll(async () => {
  ({ child: server, port, url } = await startPrivateRedis());
  blobDir = await mkdtemp(path.join(tmpdir(), 'outage-'));
  queue = new BullMqJobQueue({ connection: url, retentionMs: 60_000, logger });
  workers = await startBullMqWorkers({
    connection: url,
    handlers: handlers.handlers,
    blobs: new LocalDiskBlobStore(blobDir),
    queues: ['hash'],
    concurrency: 4,
    logger,
    blobRetentionMs: 0,
    closeGraceMs: 1000,
  });
});

afterAll(async () => {
  await workers.close();
  await queue.close();
  await stopRedisServer(server);
  await rm(blobDir, { recursive: true, force: true });
});

async function timed(operation: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  const error = await operation().then(
    () => undefined,
    (err: unknown) => err,
  );
  return { ms: Date.now() - started, error };
}

const operations = {
  ping: () => queue.ping(),
  run: () => queue.run('hash', hash(`down-${randomUUID()}`), { accountId, timeoutMs: 30_000 }),
  submit: () => queue.submit('hash', hash(`down-${randomUUID()}`), { accountId }),
  idempotentSubmit: () => queue.submit('hash', hash('x'), { accountId, idempotencyKey: randomUUID() }),
  get: () => queue.get(randomUUID()),
};

describe('Redis outage', () => {
  it('works while Redis is up', async () => {
    await queue.ping();
    await expect(queue.run('hash', hash('before'), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf('before'));
  });

  it('answers SERVICE_UNAVAILABLE within 2 s while Redis is stopped (first call and later calls)', async () => {
    await stopRedisServer(server);
    for (const round of [1, 2]) {
      for (const [name, operation] of Object.entries(operations)) {
        const { ms, error } = await timed(operation);
        expect(error, `${name} (round ${round})`).toBeInstanceOf(ServiceError);
        expect((error as ServiceError).code, name).toBe('SERVICE_UNAVAILABLE');
        expect((error as ServiceError).status, name).toBe(503);
        expect(ms, `${name} took ${ms} ms`).toBeLessThan(2000);
      }
      // The input: the outage goes on until the clients' reconnect delay has reached its cap, so
      // round 2 calls clients that have been failing for a while, not ones that just lost Redis.
      if (round === 1) await stallFor(msUntilBackoffCap());
    }
  });

  it('a run already waiting when Redis stops ends with SERVICE_UNAVAILABLE or JOB_TIMEOUT, never hangs', async () => {
    server = await startRedisServer(port);
    await expect
      .poll(
        () =>
          queue.ping().then(
            () => true,
            () => false,
          ),
        { timeout: 5000, interval: 100 },
      )
      .toBe(true);
    const data = `sleep:3000:${randomUUID()}`;
    const waiting = timed(() => queue.run('hash', hash(data), { accountId, timeoutMs: 4000 }));
    await waitFor(() => handlers.calls.get(data) === 1, { what: 'a worker to start the job' });
    await stopRedisServer(server);
    const { ms, error } = await waiting;
    expect(['SERVICE_UNAVAILABLE', 'JOB_TIMEOUT']).toContain((error as ServiceError).code);
    expect(ms).toBeLessThan(5000);
  });

  it('serves again within 5 s of Redis returning', async () => {
    // The input: Redis stays away for a second more, so the clients sit in their reconnect loop.
    await stallFor(1000);
    server = await startRedisServer(port);
    const back = Date.now();
    await expect
      .poll(
        () =>
          queue.ping().then(
            () => true,
            () => false,
          ),
        { timeout: 5000, interval: 50 },
      )
      .toBe(true);
    const data = `after-${randomUUID()}`;
    await expect(queue.run('hash', hash(data), { accountId, timeoutMs: 5000 })).resolves.toEqual(digestOf(data));
    expect(Date.now() - back).toBeLessThan(5000);
  });
});

describe('Redis down when the API starts', () => {
  it('fails fast until Redis appears, then serves within 5 s', async () => {
    const laterPort = await pickUnusedPort();
    const laterUrl = `redis://127.0.0.1:${laterPort}`;
    const producer = new BullMqJobQueue({ connection: laterUrl, retentionMs: 60_000, logger });
    let later: ChildProcess | undefined;
    let pool: WorkerPool | undefined;
    try {
      for (const operation of [
        () => producer.ping(),
        () => producer.submit('hash', hash('early'), { accountId }),
        () => producer.get(randomUUID()),
      ]) {
        const { ms, error } = await timed(operation);
        expect((error as ServiceError).code).toBe('SERVICE_UNAVAILABLE');
        expect(ms).toBeLessThan(2000);
      }
      later = await startRedisServer(laterPort);
      const back = Date.now();
      await expect
        .poll(
          () =>
            producer.ping().then(
              () => true,
              () => false,
            ),
          { timeout: 5000, interval: 50 },
        )
        .toBe(true);
      pool = await startBullMqWorkers({
        connection: laterUrl,
        handlers: createTestHandlers().handlers,
        blobs: new LocalDiskBlobStore(blobDir),
        queues: ['hash'],
        concurrency: 1,
        logger,
        blobRetentionMs: 0,
      });
      await expect(producer.run('hash', hash('late'), { accountId, timeoutMs: 5000 })).resolves.toEqual(digestOf('late'));
      expect(Date.now() - back).toBeLessThan(5000);
    } finally {
      await pool?.close();
      await producer.close();
      if (later) await stopRedisServer(later);
    }
  });
});
