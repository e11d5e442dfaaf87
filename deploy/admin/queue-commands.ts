/**
 * Operator commands over distributed mode's queues, for deploy/admin/cli.ts to add:
 *
 *   queues                               per queue: waiting, active, delayed, failed, completed, oldest waiting, paused
 *   queues pause|resume <queue>
 *   jobs get <id>                        state, attempts, times, error or result; the payload redacted
 *   jobs failed [<queue>] [--limit N]    the latest failures: who, when, attempts, error; never the payload
 *   jobs retry <id>                      a failed job runs again
 *   jobs retry --all-failed <queue>      every failed job of the queue runs again
 *   jobs remove <id>
 *   jobs clean <queue> --older-than 1d   completed and failed jobs finished before then
 *
 * Each takes --json (deploy/admin/output.ts reportingAction).
 *
 * They read REDIS_URL and QUEUE_PREFIX as the server does. Without REDIS_URL (embedded mode) the
 * queue lives in the server's memory, beyond any other process's reach: exit 2 saying so.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../../shared/config.js';
import { QUEUE_NAMES, type QueueName } from '../../shared/jobs/contracts.js';
import { parseFailedReason } from '../../shared/queue/bullmq-wire.js';
import { redactJobData } from '../../shared/queue/redact.js';
import { out, reportingAction, shortDuration, table } from './output.js';
import { QueueAdmin, type FoundJob, type QueuedJob, type QueueSummary } from './queue-admin.js';
import { UsageError } from './usage-error.js';

export const EMBEDDED_QUEUE_MESSAGE =
  'REDIS_URL is not set: in embedded mode the in-process queue lives inside the running server; set REDIS_URL (and QUEUE_PREFIX) as the server has them';

const OLDER_THAN_RE = /^(\d{1,6})([smhd])$/;
const DEFAULT_FAILED_LIMIT = 50;
const MAX_FAILED_LIMIT = 1000;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

async function withQueues<T>(fn: (admin: QueueAdmin) => Promise<T>): Promise<T> {
  const config = loadConfig();
  if (config.redis === undefined) throw new UsageError(EMBEDDED_QUEUE_MESSAGE);
  const admin = await QueueAdmin.open(config.redis, config.QUEUE_PREFIX);
  try {
    return await fn(admin);
  } finally {
    await admin.close();
  }
}

function queueArgument(): Argument {
  return new Argument('<queue>', 'queue name').choices(QUEUE_NAMES);
}

/** "1d", "12h", "30m", "0s": how long ago a job must have finished to be cleaned. */
export function parseOlderThan(value: string): number {
  const m = OLDER_THAN_RE.exec(value);
  if (!m) throw new InvalidArgumentError('expected a duration: a number and s, m, h or d (1d, 12h, 30m)');
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

/** `--limit` of `jobs failed`: 1 to 1000. */
export function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_FAILED_LIMIT)
    throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_FAILED_LIMIT}`);
  return n;
}

function printSummaries(list: QueueSummary[]): void {
  table(
    ['QUEUE', 'WAITING', 'ACTIVE', 'DELAYED', 'FAILED', 'COMPLETED', 'OLDEST WAITING', 'PAUSED'],
    list.map((q) => [
      q.queue,
      String(q.waiting),
      String(q.active),
      String(q.delayed),
      String(q.failed),
      String(q.completed),
      q.oldestWaitingSeconds === null ? '-' : shortDuration(q.oldestWaitingSeconds),
      q.paused ? 'yes' : 'no',
    ]),
  );
}

const iso = (ms: number | undefined | null): string | null => (typeof ms === 'number' && ms > 0 ? new Date(ms).toISOString() : null);

/** What `jobs get` shows: never the caller's inputs or keys (shared/queue/redact.ts). */
export function describeJob({ queue, state, job }: FoundJob): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: job.id,
    queue,
    kind: job.data.kind,
    accountId: job.data.accountId,
    state,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    createdAt: iso(job.timestamp),
    processedAt: iso(job.processedOn),
    finishedAt: iso(job.finishedOn),
    payload: (redactJobData(job.data) as { payload: unknown }).payload,
  };
  if (state === 'failed') view.error = parseFailedReason(job.failedReason);
  if (state === 'completed') view.result = job.returnvalue;
  return view;
}

/** One row of `jobs failed`: who and when, how many attempts, the error's code and message; never the payload. */
export interface FailedJobView {
  id: string | undefined;
  queue: QueueName;
  kind: string;
  accountId: string;
  finishedAt: string | null;
  attemptsMade: number;
  attempts: number;
  error: { code: string; message: string };
}

export function describeFailedJob({ queue, job }: QueuedJob): FailedJobView {
  const { code, message } = parseFailedReason(job.failedReason);
  return {
    id: job.id,
    queue,
    kind: job.data.kind,
    accountId: job.data.accountId,
    finishedAt: iso(job.finishedOn),
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    error: { code, message },
  };
}

function printFailed(list: FailedJobView[]): void {
  table(
    ['ID', 'QUEUE', 'KIND', 'ACCOUNT', 'FINISHED', 'ATTEMPTS', 'CODE', 'MESSAGE'],
    list.map((j) => [
      j.id ?? '-',
      j.queue,
      j.kind,
      j.accountId,
      j.finishedAt ?? '-',
      `${j.attemptsMade}/${j.attempts}`,
      j.error.code,
      j.error.message,
    ]),
  );
}

function printJob(view: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(view).map((k) => k.length)) + 1;
  for (const [field, value] of Object.entries(view)) {
    const shown = value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value);
    out(`${`${field}:`.padEnd(width)} ${shown}`);
  }
}

export function queuesCommand(): Command {
  const queues = reportingAction(
    new Command('queues')
      .description('queue counts, oldest waiting job, pause state (distributed mode)')
      .exitOverride()
      .showHelpAfterError(),
    async () => {
      const list = await withQueues((admin) => admin.summaries());
      return { data: list, text: () => printSummaries(list) };
    },
  );
  reportingAction(
    queues
      .command('pause')
      .description('workers stop taking jobs from the queue (running jobs finish; new jobs still queue)')
      .addArgument(queueArgument()),
    async (name: QueueName) => {
      await withQueues((admin) => admin.pause(name));
      return { data: { queue: name, paused: true }, text: () => out(`Paused queue ${name}`) };
    },
  );
  reportingAction(
    queues.command('resume').description('workers take jobs from the queue again').addArgument(queueArgument()),
    async (name: QueueName) => {
      await withQueues((admin) => admin.resume(name));
      return { data: { queue: name, paused: false }, text: () => out(`Resumed queue ${name}`) };
    },
  );
  return queues;
}

export function jobsCommand(): Command {
  const jobs = new Command('jobs').description('inspect and steer queued jobs (distributed mode)').exitOverride().showHelpAfterError();
  reportingAction(
    jobs.command('get').description("a job's state, attempts, times and error or result (its payload redacted)").argument('<id>', 'job id'),
    async (id: string) => {
      const view = await withQueues(async (admin) => {
        const found = await admin.find(id);
        if (found === undefined) throw new Error(`No job ${id}`);
        return describeJob(found);
      });
      return { data: view, text: () => printJob(view) };
    },
  );
  reportingAction(
    jobs
      .command('failed')
      .description('the latest failed jobs, newest first: id, queue, kind, account, finished at, attempts, error (never the payload)')
      .addArgument(new Argument('[queue]', 'only this queue (default: all)').choices(QUEUE_NAMES))
      .option('--limit <n>', `at most this many (1-${MAX_FAILED_LIMIT})`, parseLimit, DEFAULT_FAILED_LIMIT),
    async (name: QueueName | undefined, opts: { limit: number }) => {
      const list = (await withQueues((admin) => admin.failed(name === undefined ? QUEUE_NAMES : [name], opts.limit))).map(
        describeFailedJob,
      );
      return { data: list, text: () => printFailed(list) };
    },
  );
  reportingAction(
    jobs
      .command('retry')
      .description('run a failed job (or every failed job of a queue) again, with its full number of attempts')
      .argument('[id]', 'job id')
      .addOption(new Option('--all-failed <queue>', 'every job failed in this queue now').choices(QUEUE_NAMES)),
    async (id: string | undefined, opts: { allFailed?: QueueName }) => {
      const name = opts.allFailed;
      if (id !== undefined && name === undefined) {
        const found = await withQueues((admin) => admin.retry(id));
        // The shape of --all-failed's, for one job.
        return { data: { queue: found.queue, retried: 1, skipped: 0, id }, text: () => out(`Retrying ${id} (queue ${found.queue})`) };
      }
      if (id !== undefined || name === undefined) throw new UsageError('give a job id or --all-failed <queue>, not both');
      const done = await withQueues((admin) => admin.retryAllFailed(name));
      const skipped = done.skipped === 0 ? '' : ` (${done.skipped} no longer failed)`;
      return { data: { queue: name, ...done }, text: () => out(`Retrying ${done.retried} failed jobs of queue ${name}${skipped}`) };
    },
  );
  reportingAction(
    jobs
      .command('remove')
      .description('delete a job that is not running (its result or error is gone for good)')
      .argument('<id>', 'job id'),
    async (id: string) => {
      const found = await withQueues((admin) => admin.remove(id));
      return {
        data: { id, queue: found.queue, state: found.state, removed: true },
        text: () => out(`Removed ${id} (queue ${found.queue}, was ${found.state})`),
      };
    },
  );
  reportingAction(
    jobs
      .command('clean')
      .description('delete completed and failed jobs that finished before the given time')
      .addArgument(queueArgument())
      .requiredOption('--older-than <duration>', 'finished at least this long ago (1d, 12h, 30m, 0s)', parseOlderThan),
    async (name: QueueName, opts: { olderThan: number }) => {
      const removed = await withQueues((admin) => admin.clean(name, opts.olderThan));
      return {
        data: { queue: name, ...removed },
        text: () => out(`Removed ${removed.completed} completed and ${removed.failed} failed jobs from queue ${name}`),
      };
    },
  );
  return jobs;
}
