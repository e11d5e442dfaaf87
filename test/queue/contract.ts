/**
 * The JobQueue contract: what every implementation (InProcessQueue, BullMQ) must do the same way.
 * Each implementation's test file calls describeJobQueueContract with a factory that builds a
 * producer wired to consumers running the given handlers.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import type { BlobStore } from '../../shared/blob/types.js';
import { ServiceError } from '../../shared/errors.js';
import type { FileJob, HashJob } from '../../shared/jobs/contracts.js';
import type { JobHandlers, JobQueue, JobRecord } from '../../shared/queue/types.js';
import { createTestHandlers, digestOf, type TestHandlers } from './handlers.js';

export interface QueueHarness {
  queue: JobQueue;
  close(): Promise<void>;
}

export type QueueHarnessFactory = (deps: { handlers: JobHandlers; blobs: BlobStore }) => Promise<QueueHarness>;

const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const account = (): string => `acct-${randomUUID()}`;

async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ServiceError);
  return outcome as ServiceError;
}

/** Polls get(id) until the job has finished. */
export async function finished(queue: JobQueue, id: string, withinMs = 10_000): Promise<JobRecord> {
  const until = Date.now() + withinMs;
  for (;;) {
    const record = await queue.get(id);
    if (record && (record.state === 'completed' || record.state === 'failed')) return record;
    if (Date.now() > until) throw new Error(`job ${id} did not finish within ${withinMs} ms (state ${record?.state ?? 'missing'})`);
    await sleep(25);
  }
}

export function describeJobQueueContract(name: string, factory: QueueHarnessFactory): void {
  describe(`JobQueue contract: ${name}`, () => {
    let harness: QueueHarness;
    let queue: JobQueue;
    let test: TestHandlers;
    let blobs: BlobStore;
    let blobDir: string;

    beforeAll(async () => {
      blobDir = await mkdtemp(path.join(tmpdir(), 'queue-contract-'));
      blobs = new LocalDiskBlobStore(blobDir);
      test = createTestHandlers();
      harness = await factory({ handlers: test.handlers, blobs });
      queue = harness.queue;
    });

    afterAll(async () => {
      await harness.close();
      await rm(blobDir, { recursive: true, force: true });
    });

    it('run resolves with the handler result', async () => {
      await expect(queue.run('hash', hash('hello'), { accountId: account(), timeoutMs: 10_000 })).resolves.toEqual(digestOf('hello'));
    });

    it('a permanent ServiceError surfaces with the same code, message and details', async () => {
      const error = await failureOf(queue.run('hash', hash(`invalid:${randomUUID()}`), { accountId: account(), timeoutMs: 10_000 }));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toBe('data is not acceptable');
      expect(error.details).toBe('field: data');
      expect(error.status).toBe(400);
    });

    it('an internal failure surfaces as INTERNAL_ERROR without its internals', async () => {
      const error = await failureOf(queue.run('hash', hash(`crash:${randomUUID()}`), { accountId: account(), timeoutMs: 20_000 }));
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.message).toBe('Internal error');
      expect(JSON.stringify(error)).not.toContain('secret');
    });

    it('a slow job answers JOB_TIMEOUT with its job_id; the result is there later', async () => {
      const accountId = account();
      const data = `sleep:600:${randomUUID()}`;
      const started = Date.now();
      const error = await failureOf(queue.run('hash', hash(data), { accountId, timeoutMs: 200 }));
      expect(Date.now() - started).toBeLessThan(1500);
      expect(error.code).toBe('JOB_TIMEOUT');
      expect(error.status).toBe(504);
      const jobId = error.extra?.job_id;
      expect(typeof jobId).toBe('string');
      expect(error.details).toContain(String(jobId));
      const record = await finished(queue, String(jobId));
      expect(record).toMatchObject({ id: jobId, state: 'completed', kind: 'hash', accountId, result: digestOf(data) });
    });

    it('never misses fast jobs: 500 concurrent runs with an instant handler all resolve', async () => {
      const accountId = account();
      const inputs = Array.from({ length: 500 }, (_, i) => `fast-${i}-${randomUUID()}`);
      const results = await Promise.all(inputs.map((data) => queue.run('hash', hash(data), { accountId, timeoutMs: 20_000 })));
      expect(results).toEqual(inputs.map(digestOf));
    });

    it('submit returns at once; get shows queued/active, then completed with the full record', async () => {
      const accountId = account();
      const data = `sleep:300:${randomUUID()}`;
      const before = Date.now();
      const { id, created } = await queue.submit('hash', hash(data), { accountId });
      expect(created).toBe(true);
      const early = await queue.get(id);
      expect(early?.state === 'queued' || early?.state === 'active').toBe(true);
      expect(early?.result).toBeUndefined();
      const record = await finished(queue, id);
      expect(record).toMatchObject({ id, kind: 'hash', accountId, state: 'completed', payload: hash(data), result: digestOf(data) });
      expect(record.error).toBeUndefined();
      expect(record.createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(record.finishedAt).toBeGreaterThanOrEqual(record.createdAt);
    });

    it('a failed job record carries the public error {code, message, details}', async () => {
      const { id } = await queue.submit('hash', hash(`invalid:${randomUUID()}`), { accountId: account() });
      const record = await finished(queue, id);
      expect(record.state).toBe('failed');
      expect(record.result).toBeUndefined();
      expect(record.error).toEqual({ code: 'INVALID_INPUT', message: 'data is not acceptable', details: 'field: data' });
    });

    it('get of an unknown id is undefined', async () => {
      await expect(queue.get(randomUUID())).resolves.toBeUndefined();
      await expect(queue.get('not-a-job')).resolves.toBeUndefined();
    });

    it('an idempotency key returns the existing job, per account, without running it twice', async () => {
      const accountId = account();
      const data = `sleep:100:${randomUUID()}`;
      const idempotencyKey = randomUUID();
      const first = await queue.submit('hash', hash(data), { accountId, idempotencyKey });
      const second = await queue.submit('hash', hash(data), { accountId, idempotencyKey });
      expect(first.created).toBe(true);
      expect(second).toEqual({ id: first.id, created: false });
      const other = await queue.submit('hash', hash(data), { accountId: account(), idempotencyKey });
      expect(other.created).toBe(true);
      expect(other.id).not.toBe(first.id);

      await finished(queue, first.id);
      await finished(queue, other.id);
      // run with the same key answers from the finished job.
      await expect(queue.run('hash', hash(data), { accountId, idempotencyKey, timeoutMs: 5000 })).resolves.toEqual(digestOf(data));
      expect(test.calls.get(data)).toBe(2); // once per account
    });

    it('onFinished fires for completed and failed jobs; unsubscribing stops it', async () => {
      const seen: string[] = [];
      const off = queue.onFinished((id) => seen.push(id));
      const ok = await queue.submit('hash', hash(`ok-${randomUUID()}`), { accountId: account() });
      const bad = await queue.submit('hash', hash(`invalid:${randomUUID()}`), { accountId: account() });
      await finished(queue, ok.id);
      await finished(queue, bad.id);
      await expect.poll(() => seen.includes(ok.id) && seen.includes(bad.id), { timeout: 5000 }).toBe(true);
      off();
      const after = await queue.submit('hash', hash(`ok-${randomUUID()}`), { accountId: account() });
      await finished(queue, after.id);
      await sleep(200);
      expect(seen).not.toContain(after.id);
    });

    it("deletes a job's blob after it succeeds and after it fails", async () => {
      const accountId = account();
      for (const filename of ['ok.bin', 'reject']) {
        const key = `uploads/${accountId}/${randomUUID()}`;
        const bytes = Buffer.from(`file body ${filename}`);
        const blob = await blobs.put(key, Readable.from([bytes]), { maxBytes: 1024 });
        const payload: FileJob = { blob, filename, chunkSize: 65536, output: 'hex' };
        const { id } = await queue.submit('file', payload, { accountId });
        const record = await finished(queue, id);
        if (filename === 'reject') expect(record.error?.code).toBe('INVALID_INPUT');
        else expect(record.result).toEqual({ digest: digestOf(bytes.toString()).digest, size: bytes.length });
        await expect.poll(() => blobs.get(key).then(() => 'present', (err: ServiceError) => err.code), { timeout: 5000 }).toBe('NOT_FOUND');
      }
    });

    it('ping resolves while the queue is up', async () => {
      await expect(queue.ping()).resolves.toBeUndefined();
    });
  });
}
