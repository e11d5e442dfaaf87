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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import type { BlobStore } from '../../shared/blob/types.js';
import { ServiceError } from '../../shared/errors.js';
import type { FileJob, HashJob } from '../../shared/jobs/contracts.js';
import type { JobHandlers, JobQueue, JobRecord } from '../../shared/queue/types.js';
import { createTestHandlers, digestOf, type TestHandlers } from './handlers.js';
import { waitFor } from '../helpers/wait.js';

export interface QueueHarness {
  queue: JobQueue;
  /** Hash jobs that run at once: that many held jobs leave no worker free. */
  capacity: number;
  close(): Promise<void>;
}

/** `maxWaiting`: the queues' bound (QUEUE_MAX_WAITING); the implementation's default if absent. */
export type QueueHarnessFactory = (deps: { handlers: JobHandlers; blobs: BlobStore; maxWaiting?: number }) => Promise<QueueHarness>;

const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const account = (): string => `acct-${randomUUID()}`;

/** The ServiceError `promise` rejects with; fails the test if it resolves or rejects otherwise. */
export async function failureOf(promise: Promise<unknown>): Promise<ServiceError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ServiceError);
  return outcome as ServiceError;
}

/** Polls get(id) until the job has finished. */
export async function finished(queue: JobQueue, id: string, withinMs = 10_000): Promise<JobRecord> {
  let state = 'missing';
  return waitFor(
    async () => {
      const record = await queue.get(id);
      state = record?.state ?? 'missing';
      return record && (record.state === 'completed' || record.state === 'failed') && record;
    },
    { timeoutMs: withinMs, intervalMs: 25, what: `job ${id} to finish` },
  ).catch((err: unknown) => {
    throw new Error(`job ${id} did not finish within ${withinMs} ms (state ${state})`, { cause: err });
  });
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

    it('a job still running at the deadline answers JOB_TIMEOUT with its job_id; it goes on and its result is there later', async () => {
      const accountId = account();
      const tag = randomUUID();
      const data = `hold:${tag}`;
      const started = Date.now();
      const error = await failureOf(queue.run('hash', hash(data), { accountId, timeoutMs: 1500 }));
      expect(Date.now() - started).toBeLessThan(1500 + 1500);
      expect(error.code).toBe('JOB_TIMEOUT');
      expect(error.status).toBe(504);
      expect(test.calls.get(data)).toBe(1);
      const jobId = error.extra?.job_id;
      expect(typeof jobId).toBe('string');
      expect(error.details).toBe(`job ${String(jobId)} did not finish within 1500 ms; GET /v2/jobs/${String(jobId)} for its result`);
      expect((await queue.get(String(jobId)))?.state).toBe('active');
      test.release(tag);
      const record = await finished(queue, String(jobId));
      expect(record).toMatchObject({ id: jobId, state: 'completed', kind: 'hash', accountId, result: digestOf(data) });
    });

    /** Submits `harness.capacity` held hash jobs and resolves once every one is running; `release` lets them finish. */
    async function occupyEveryWorker(): Promise<{ release: () => Promise<void> }> {
      const tag = randomUUID();
      const inputs = Array.from({ length: harness.capacity }, (_, i) => `hold:${tag}:${i}`);
      const jobs = await Promise.all(inputs.map((data) => queue.submit('hash', hash(data), { accountId: account() })));
      await expect.poll(() => inputs.filter((data) => test.calls.get(data) === 1).length, { timeout: 10_000 }).toBe(inputs.length);
      return {
        release: async () => {
          test.release(tag);
          await Promise.all(jobs.map(({ id }) => finished(queue, id)));
        },
      };
    }

    it('a job no worker has taken by the deadline is cancelled: 503 with Retry-After, and it never runs', async () => {
      const busy = await occupyEveryWorker();
      const data = `never-${randomUUID()}`;
      const error = await failureOf(queue.run('hash', hash(data), { accountId: account(), timeoutMs: 300 }));
      expect(error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        retryAfter: 5,
        details: 'no worker took the job within 300 ms; it was cancelled — retry later',
        extra: undefined,
      });
      await busy.release();
      // Jobs are taken in order: had the cancelled one stayed queued, it would have started before this one ends.
      const after = `after-${randomUUID()}`;
      await expect(queue.run('hash', hash(after), { accountId: account(), timeoutMs: 10_000 })).resolves.toEqual(digestOf(after));
      expect(test.calls.get(data)).toBeUndefined();
    });

    it('a caller that leaves takes its untaken job with it; a job already running is still waited for', async () => {
      const busy = await occupyEveryWorker();
      const left = new AbortController();
      const reason = new ServiceError('INVALID_INPUT', { message: 'Request was aborted' });
      const abandoned = `abandoned-${randomUUID()}`;
      const running = queue.run('hash', hash(abandoned), { accountId: account(), timeoutMs: 20_000, signal: left.signal });
      left.abort(reason);
      await expect(running).rejects.toBe(reason);
      await busy.release();
      const after = `after-${randomUUID()}`;
      await expect(queue.run('hash', hash(after), { accountId: account(), timeoutMs: 10_000 })).resolves.toEqual(digestOf(after));
      expect(test.calls.get(abandoned)).toBeUndefined();

      const tag = randomUUID();
      const held = `hold:${tag}`;
      const stays = new AbortController();
      const waited = queue.run('hash', hash(held), { accountId: account(), timeoutMs: 20_000, signal: stays.signal });
      await expect.poll(() => test.calls.get(held), { timeout: 10_000 }).toBe(1);
      stays.abort(reason);
      test.release(tag);
      await expect(waited).resolves.toEqual(digestOf(held));
    });

    it('a synchronous job is forgotten once answered, completed or failed; with an idempotency key it is kept', async () => {
      const ok = `forgotten-${randomUUID()}`;
      const bad = `invalid:${randomUUID()}`;
      await expect(queue.run('hash', hash(ok), { accountId: account(), timeoutMs: 10_000 })).resolves.toEqual(digestOf(ok));
      expect((await failureOf(queue.run('hash', hash(bad), { accountId: account(), timeoutMs: 10_000 }))).code).toBe('INVALID_INPUT');
      for (const data of [ok, bad]) {
        // A bundled job's id names its bundle and its place in it (bullmq-wire.ts bundleItemId).
        expect(test.jobIds.get(data)).toMatch(/^[0-9a-f-]{36}(\.\d+)?$/);
        await expect(queue.get(test.jobIds.get(data)!)).resolves.toBeUndefined();
      }
      const accountId = account();
      const idempotencyKey = randomUUID();
      const kept = `kept-${randomUUID()}`;
      await expect(queue.run('hash', hash(kept), { accountId, idempotencyKey, timeoutMs: 10_000 })).resolves.toEqual(digestOf(kept));
      const replay = await queue.submit('hash', hash(kept), { accountId, idempotencyKey });
      expect(replay.created).toBe(false);
      expect(await queue.get(replay.id)).toMatchObject({ state: 'completed', result: digestOf(kept) });
      await expect(queue.run('hash', hash(kept), { accountId, idempotencyKey, timeoutMs: 10_000 })).resolves.toEqual(digestOf(kept));
      expect(test.calls.get(kept)).toBe(1);
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

    it('a key is stored with its request fingerprint: the same fingerprint replays, another is IDEMPOTENCY_KEY_REUSED', async () => {
      const accountId = account();
      const idempotencyKey = randomUUID();
      const data = `sleep:50:${randomUUID()}`;
      const first = await queue.submit('hash', hash(data), { accountId, idempotencyKey, fingerprint: 'f1' });
      expect(first.created).toBe(true);
      await expect(queue.submit('hash', hash(data), { accountId, idempotencyKey, fingerprint: 'f1' })).resolves.toEqual({
        id: first.id,
        created: false,
      });
      const reused = await failureOf(queue.submit('hash', hash(`other-${data}`), { accountId, idempotencyKey, fingerprint: 'f2' }));
      expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(reused.status).toBe(422);
      await finished(queue, first.id);
      expect(test.calls.get(`other-${data}`)).toBeUndefined();
      // Still refused once the first job has finished; another account may use the same key.
      expect((await failureOf(queue.submit('hash', hash(data), { accountId, idempotencyKey, fingerprint: 'f2' }))).code).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect((await queue.submit('hash', hash(data), { accountId: account(), idempotencyKey, fingerprint: 'f2' })).created).toBe(true);
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
      // A listener still subscribed sees the later job: once it has, the removed one would have too.
      const stillSubscribed: string[] = [];
      const offLater = queue.onFinished((id) => stillSubscribed.push(id));
      const after = await queue.submit('hash', hash(`ok-${randomUUID()}`), { accountId: account() });
      await finished(queue, after.id);
      await waitFor(() => stillSubscribed.includes(after.id), { timeoutMs: 5000, what: 'the later job to be announced' });
      offLater();
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
      }
    });

    it('ping resolves while the queue is up', async () => {
      await expect(queue.ping()).resolves.toBeUndefined();
    });

    it('past maxWaiting untaken jobs, a queue refuses new ones with 503 and Retry-After; other queues and replays are served', async () => {
      const bounded = await factory({ handlers: test.handlers, blobs, maxWaiting: 3 });
      try {
        const tag = randomUUID();
        const accountId = account();
        const running = await Promise.all(
          Array.from({ length: bounded.capacity }, (_, i) => bounded.queue.submit('hash', hash(`hold:${tag}:run-${i}`), { accountId })),
        );
        await expect
          .poll(() => Array.from({ length: bounded.capacity }, (_, i) => test.calls.get(`hold:${tag}:run-${i}`)).every((n) => n === 1), {
            timeout: 10_000,
          })
          .toBe(true);
        const idempotencyKey = randomUUID();
        const queued = [await bounded.queue.submit('hash', hash(`hold:${tag}:queued-0`), { accountId, idempotencyKey })];
        // The bound is read at most every 250 ms per node, so a few more may be admitted before the refusals start.
        let refused: ServiceError | undefined;
        await expect
          .poll(
            async () => {
              const outcome = await bounded.queue.submit('hash', hash(`hold:${tag}:queued-${queued.length}`), { accountId }).then(
                (job) => queued.push(job),
                (err: unknown) => (refused = err as ServiceError),
              );
              return outcome instanceof ServiceError;
            },
            { timeout: 10_000, interval: 50 },
          )
          .toBe(true);
        expect(queued.length).toBeGreaterThanOrEqual(3);
        expect(refused).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          status: 503,
          retryAfter: 5,
          details: 'the hash queue is full; retry later',
        });
        expect((await failureOf(bounded.queue.run('hash', hash(`late-${randomUUID()}`), { accountId, timeoutMs: 10_000 }))).code).toBe(
          'SERVICE_UNAVAILABLE',
        );
        await expect(bounded.queue.submit('hash', hash(`hold:${tag}:queued-0`), { accountId, idempotencyKey })).resolves.toEqual({
          id: queued[0]!.id,
          created: false,
        });
        const other = await bounded.queue.submit(
          'file',
          { blob: { key: `uploads/${accountId}/none`, size: 0 }, filename: 'x', chunkSize: 1024, output: 'hex' },
          { accountId },
        );
        expect(other.created).toBe(true);

        test.release(tag);
        await Promise.all([...running, ...queued].map(({ id }) => finished(bounded.queue, id)));
        const again = `again-${randomUUID()}`;
        await expect
          .poll(() => bounded.queue.run('hash', hash(again), { accountId, timeoutMs: 10_000 }).catch((err: ServiceError) => err.code), {
            timeout: 5000,
            interval: 100,
          })
          .toEqual(digestOf(again));
      } finally {
        await bounded.close();
      }
    });
  });
}
