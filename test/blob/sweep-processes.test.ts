/**
 * The sweep as the processes run it.
 *
 * Retention survives a worker restart. A worker (dist/worker.js, distributed mode on the machine's
 * Redis, blobs on a shared DATA_DIR) finishes a file job and arms its BLOB_RETENTION_SECONDS timer;
 * killed, it takes the timer with it. The restarted worker's sweep deletes the blob once it is older
 * than the retention plus the grace (aged with fs.utimes), and keeps a blob a delayed job still
 * needs and a young one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import type { BlobRef, FileJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { bullQueueName, uploadBlobKey } from '../../shared/naming.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import type { BullJobData } from '../../shared/queue/bullmq-wire.js';
import { spawnEntry, type SpawnedProcess } from '../helpers/spawn.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';

const HOUR = 3_600_000;
const prefix = freshPrefix();
let dataDir: string;
let blobs: LocalDiskBlobStore;
let queue: BullMqJobQueue;
let worker: SpawnedProcess | undefined;

function startWorker(): SpawnedProcess {
  return spawnEntry(
    'worker',
    {
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      BLOB_RETENTION_SECONDS: '3600',
      BLOB_SWEEP_INTERVAL_SECONDS: '1',
      BLOB_SWEEP_GRACE_SECONDS: '60',
    },
    ['--queues', 'file,stream', '--concurrency', '2'],
  );
}

async function upload(text: string, ageMs = 0): Promise<BlobRef> {
  const ref = await blobs.put(uploadBlobKey('acct-restart'), Readable.from([Buffer.from(text)]), { maxBytes: 1024 });
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    await utimes(path.join(dataDir, 'blobs', ref.key), then, then);
  }
  return ref;
}

const fileJob = (blob: BlobRef): FileJob => ({ blob, filename: 'notes.txt', chunkSize: 1024, output: 'hex' });
const stored = (ref: BlobRef): boolean => existsSync(path.join(dataDir, 'blobs', ref.key));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'sha224d-restart-'));
  blobs = new LocalDiskBlobStore(path.join(dataDir, 'blobs'));
  queue = new BullMqJobQueue({ connection: SHARED_REDIS_URL, retentionMs: HOUR, logger: createLogger('silent'), prefix });
});

afterAll(async () => {
  await worker?.stop();
  await queue?.close();
  await dropPrefix(SHARED_REDIS_URL, prefix);
  await rm(dataDir, { recursive: true, force: true });
});

describe('blob retention across a worker restart', () => {
  it('the restarted worker sweeps the blob whose retention timer died with its predecessor', { timeout: 120_000 }, async () => {
    worker = startWorker();
    await worker.waitFor(/worker ready/);
    const finishedBlob = await upload('hashed, then orphaned');
    const result = await queue.run('file', fileJob(finishedBlob), { accountId: 'acct-restart', timeoutMs: 30_000 });
    expect(result).toEqual({ digest: createHash('sha224').update('hashed, then orphaned').digest('hex'), size: 21 });
    // Kept for BLOB_RETENTION_SECONDS by the worker's timer...
    expect(stored(finishedBlob)).toBe(true);
    // ...which SIGKILL takes with the process.
    await worker.stop('SIGKILL');

    const neededBlob = await upload('a delayed job still needs this', 2 * HOUR);
    const fileQueue = new Queue<BullJobData>(bullQueueName('file'), { connection: { url: SHARED_REDIS_URL }, prefix });
    try {
      const data: BullJobData = { kind: 'file', accountId: 'acct-restart', payload: fileJob(neededBlob) };
      await fileQueue.add('file', data, { delay: 10 * 60_000 });
    } finally {
      await fileQueue.close();
    }
    const youngBlob = await upload('uploaded a moment ago, job not enqueued yet');
    // The finished job's blob, two hours on: past BLOB_RETENTION_SECONDS (1 h) + BLOB_SWEEP_GRACE_SECONDS (60 s).
    const then = new Date(Date.now() - 2 * HOUR);
    await utimes(path.join(dataDir, 'blobs', finishedBlob.key), then, then);
    expect([stored(finishedBlob), stored(neededBlob), stored(youngBlob)]).toEqual([true, true, true]);

    worker = startWorker();
    await worker.waitFor(/worker ready/);
    await worker.waitFor(/"listed":3,"referenced":1,"deleted":1,"abortedUploads":0,"msg":"blob sweep done"/, 30_000);
    expect([stored(finishedBlob), stored(neededBlob), stored(youngBlob)]).toEqual([false, true, true]);
  });
});

describe('blob sweep in embedded mode (npm start)', () => {
  it('deletes an upload left by an earlier run, keeps a young one, removes a stale .part file', { timeout: 120_000 }, async () => {
    const embeddedDir = await mkdtemp(path.join(tmpdir(), 'sha224d-embedded-sweep-'));
    const local = new LocalDiskBlobStore(path.join(embeddedDir, 'blobs'));
    const age = async (key: string): Promise<void> => {
      const then = new Date(Date.now() - 2 * HOUR);
      await utimes(path.join(embeddedDir, 'blobs', key), then, then);
    };
    const left = await local.put(uploadBlobKey('acct'), Readable.from([Buffer.from('left behind')]), { maxBytes: 1024 });
    await age(left.key);
    const young = await local.put(uploadBlobKey('acct'), Readable.from([Buffer.from('young')]), { maxBytes: 1024 });
    const part = `${uploadBlobKey('acct')}.${randomUUID()}.part`;
    await mkdir(path.dirname(path.join(embeddedDir, 'blobs', part)), { recursive: true });
    await writeFile(path.join(embeddedDir, 'blobs', part), 'half');
    await age(part);
    const server = spawnEntry('embedded', {
      DATA_DIR: embeddedDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      BOOTSTRAP_ADMIN: 'false',
      BLOB_SWEEP_INTERVAL_SECONDS: '1',
      BLOB_SWEEP_GRACE_SECONDS: '60',
    });
    try {
      await server.waitFor(/listening on/);
      await server.waitFor(/"listed":2,"referenced":0,"deleted":1,"abortedUploads":1,"msg":"blob sweep done"/, 30_000);
      const exists = (key: string): boolean => existsSync(path.join(embeddedDir, 'blobs', key));
      expect([exists(left.key), exists(young.key), exists(part)]).toEqual([false, true, false]);
    } finally {
      await server.stop();
      await rm(embeddedDir, { recursive: true, force: true });
    }
  });
});
