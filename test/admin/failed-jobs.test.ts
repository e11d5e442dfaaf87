/**
 * `jobs failed` and `jobs retry --all-failed` end to end: `node dist/admin.js` spawned against the
 * machine's Redis under a fresh QUEUE_PREFIX, with a producer and workers in this process failing
 * jobs on purpose (test/queue/handlers.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_QUEUE_MESSAGE } from '../../deploy/admin/queue-commands.js';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { ERROR_CATALOG } from '../../shared/errors.js';
import { QUEUE_NAMES, type HashJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import type { JobRecord, WorkerPool } from '../../shared/queue/types.js';
import { ROOT } from '../helpers/spawn.js';
import { finished } from '../queue/contract.js';
import { createTestHandlers } from '../queue/handlers.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { waitFor } from '../helpers/wait.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

interface FailedView {
  id: string;
  queue: string;
  kind: string;
  accountId: string;
  finishedAt: string;
  attemptsMade: number;
  attempts: number;
  error: { code: string; message: string };
}

const logger = createLogger('silent');
const prefix = freshPrefix();
const test = createTestHandlers();
const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const STACK_LINE = /^\s+at /m;

let dataDir: string;
let queue: BullMqJobQueue;
let workers: WorkerPool;

function admin(env: Record<string, string>, ...args: string[]): Promise<Result> {
  const full: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX']) if (env[name] === undefined) delete full[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist', 'admin.js'), ...args], { env: full, cwd: ROOT }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

const distributed = (...args: string[]): Promise<Result> => admin({ REDIS_URL: SHARED_REDIS_URL, QUEUE_PREFIX: prefix }, ...args);

async function failedJson(...args: string[]): Promise<FailedView[]> {
  const result = await distributed('jobs', 'failed', ...args, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as FailedView[];
}

async function fail(kind: 'hash' | 'file', data: string): Promise<JobRecord> {
  const { id } =
    kind === 'hash'
      ? await queue.submit('hash', hash(data), { accountId: 'acct-ops' })
      : await queue.submit(
          'file',
          { blob: { key: data, size: 3 }, filename: 'a.txt', chunkSize: 1024, output: 'hex' },
          { accountId: 'acct-files' },
        );
  const record = await finished(queue, id, 30_000);
  expect(record.state).toBe('failed');
  return record;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-failed-jobs-'));
  // Two attempts: a retryable failure shows 2/2, a final one 1/2.
  queue = new BullMqJobQueue({ connection: SHARED_REDIS_URL, retentionMs: 3_600_000, logger, prefix, attempts: 2, backoffMs: 0 });
  workers = await startBullMqWorkers({
    connection: SHARED_REDIS_URL,
    handlers: test.handlers,
    blobs: new LocalDiskBlobStore(path.join(dataDir, 'blobs')),
    queues: QUEUE_NAMES,
    concurrency: 2,
    logger,
    blobRetentionMs: 0,
    prefix,
  });
});

afterAll(async () => {
  await workers?.close();
  await queue?.close();
  await dropPrefix(SHARED_REDIS_URL, prefix);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('admin CLI: jobs failed, jobs retry --all-failed', () => {
  it('lists failed jobs newest first with their error and attempts, never their inputs', async () => {
    expect(await failedJson()).toEqual([]);
    const invalid = await fail('hash', 'invalid:secret-input-one');
    const crashed = await fail('hash', 'crash:secret-input-two');
    const missing = await fail('file', 'uploads/acct-files/never-uploaded');

    const all = await failedJson();
    expect(all.map((job) => job.id).sort()).toEqual([invalid.id, crashed.id, missing.id].sort());
    const finishedAt = all.map((job) => Date.parse(job.finishedAt));
    expect(finishedAt).toEqual([...finishedAt].sort((a, b) => b - a));
    const byId = new Map(all.map((job) => [job.id, job]));
    expect(byId.get(invalid.id)).toEqual({
      id: invalid.id,
      queue: 'hash',
      kind: 'hash',
      accountId: 'acct-ops',
      finishedAt: new Date(invalid.finishedAt!).toISOString(),
      attemptsMade: 1,
      attempts: 2,
      error: { code: 'INVALID_INPUT', message: 'data is not acceptable' },
    });
    expect(byId.get(crashed.id)).toEqual({
      id: crashed.id,
      queue: 'hash',
      kind: 'hash',
      accountId: 'acct-ops',
      finishedAt: new Date(crashed.finishedAt!).toISOString(),
      attemptsMade: 2,
      attempts: 2,
      error: { code: 'INTERNAL_ERROR', message: ERROR_CATALOG.INTERNAL_ERROR.message },
    });
    expect(byId.get(missing.id)).toEqual({
      id: missing.id,
      queue: 'file',
      kind: 'file',
      accountId: 'acct-files',
      finishedAt: new Date(missing.finishedAt!).toISOString(),
      attemptsMade: 1,
      attempts: 2,
      error: { code: 'NOT_FOUND', message: ERROR_CATALOG.NOT_FOUND.message },
    });

    expect((await failedJson('hash')).map((job) => job.id).sort()).toEqual([invalid.id, crashed.id].sort());
    expect(await failedJson('url')).toEqual([]);
    expect(await failedJson('--limit', '1')).toEqual([all[0]]);

    const text = await distributed('jobs', 'failed');
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+QUEUE\s+KIND\s+ACCOUNT\s+FINISHED\s+ATTEMPTS\s+CODE\s+MESSAGE$/);
    expect(lines).toHaveLength(4);
    expect(text.stdout).toMatch(
      new RegExp(`^${invalid.id}\\s+hash\\s+hash\\s+acct-ops\\s+\\S+Z\\s+1/2\\s+INVALID_INPUT\\s+data is not acceptable$`, 'm'),
    );
    expect(text.stdout).toMatch(new RegExp(`^${missing.id}\\s+file\\s+file\\s+acct-files\\s+\\S+Z\\s+1/2\\s+NOT_FOUND\\s+`, 'm'));
    for (const output of [text.stdout, JSON.stringify(all)]) {
      expect(output).not.toContain('secret-input');
      expect(output).not.toContain('never-uploaded');
    }
  });

  it('refuses bad arguments (exit 2) and, without REDIS_URL, says the queue lives in the server', async () => {
    const refusals: Array<[string[], string]> = [
      [['jobs', 'failed', '--limit', '0'], 'expected a whole number from 1 to 1000'],
      [['jobs', 'failed', '--limit', '1001'], 'expected a whole number from 1 to 1000'],
      [['jobs', 'failed', '--limit', 'x'], 'expected a whole number from 1 to 1000'],
      [['jobs', 'failed', 'nope'], 'Allowed choices are hash, batch, file, url, stream'],
      [['jobs', 'retry'], 'error: give a job id or --all-failed <queue>, not both'],
      [['jobs', 'retry', 'some-id', '--all-failed', 'hash'], 'error: give a job id or --all-failed <queue>, not both'],
      [['jobs', 'retry', '--all-failed', 'nope'], 'Allowed choices are hash, batch, file, url, stream'],
    ];
    const results = await Promise.all(refusals.map(([args]) => distributed(...args)));
    for (const [i, [args, message]] of refusals.entries()) {
      const result = results[i]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(STACK_LINE);
    }

    const embedded = await admin({}, 'jobs', 'failed');
    expect(embedded.code).toBe(2);
    expect(embedded.stderr).toContain(`error: ${EMBEDDED_QUEUE_MESSAGE}`);
  });

  it('retry --all-failed runs every failed job of the queue again with fresh attempts; other queues stay', async () => {
    const flaky = await fail('hash', 'flaky:2:retry-all');
    expect(test.calls.get('flaky:2:retry-all')).toBe(2);
    const before = await failedJson('hash');
    expect(before).toHaveLength(3);

    const empty = await distributed('jobs', 'retry', '--all-failed', 'url');
    expect(empty).toMatchObject({ code: 0, stdout: 'Retrying 0 failed jobs of queue url\n' });

    const retried = await distributed('jobs', 'retry', '--all-failed', 'hash', '--json');
    expect(retried.code, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout)).toEqual({ queue: 'hash', retried: 3, skipped: 0 });

    const deadline = Date.now() + 30_000;
    await waitFor(async () => (await queue.get(flaky.id))?.state === 'completed', {
      timeoutMs: 30_000,
      intervalMs: 25,
      what: 'the flaky job to complete after its retry',
    });
    expect(test.calls.get('flaky:2:retry-all')).toBe(3);
    // The other two failed again, each with a fresh count of attempts.
    let after: FailedView[] = [];
    while (after.length !== 2 || after.some((job) => job.attemptsMade !== (job.error.code === 'INTERNAL_ERROR' ? 2 : 1))) {
      if (Date.now() > deadline) throw new Error(`the retried jobs did not fail again: ${JSON.stringify(after)}`);
      after = await failedJson('hash');
    }
    expect(after.map((job) => job.error.code).sort()).toEqual(['INTERNAL_ERROR', 'INVALID_INPUT']);
    expect(test.calls.get('invalid:secret-input-one')).toBe(2);
    expect(test.calls.get('crash:secret-input-two')).toBe(4);
    // The file queue was not touched.
    expect((await failedJson('file')).map((job) => job.attemptsMade)).toEqual([1]);
  });
});
