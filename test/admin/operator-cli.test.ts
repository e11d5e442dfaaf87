/**
 * The admin CLI's operator commands end to end: `node dist/admin.js` (what `npm run admin` bundles)
 * spawned against a private redis-server on a free port, with workers and a producer in this
 * process on the same QUEUE_PREFIX, and the store on SQLite (PostgreSQL for the banner).
 */
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../deploy/admin/cli.js';
import { EMBEDDED_QUEUE_MESSAGE } from '../../deploy/admin/queue-commands.js';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { QUEUE_NAMES, type HashJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import type { WorkerPool } from '../../shared/queue/types.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { finished } from '../queue/contract.js';
import { createTestHandlers } from '../queue/handlers.js';
import { freshPrefix, startPrivateRedis, stopRedisServer } from '../queue/redis-helpers.js';
import { sha224Hex } from '../helpers/digests.js';
import { pickUnusedPort } from '../helpers/ports.js';
import { ROOT } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { createTestDatabase } from '../store/engines.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

const logger = createLogger('silent');
const prefix = freshPrefix();
const accountId = 'acct-operator';
const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });

let dataDir: string;
let redisUrl: string;
let redis: ChildProcess;
let queue: BullMqJobQueue;
let workers: WorkerPool;
let store: KyselyAccountStore;
const test = createTestHandlers();

function admin(env: Record<string, string | undefined>, ...args: string[]): Promise<Result> {
  const full: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX']) if (env[name] === undefined) delete full[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'dist', 'admin.js'), ...args], { env: full, cwd: ROOT }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const distributed = (...args: string[]): Promise<Result> => admin({ REDIS_URL: redisUrl, QUEUE_PREFIX: prefix }, ...args);
const embedded = (...args: string[]): Promise<Result> => admin({}, ...args);

interface Summary {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  oldestWaitingSeconds: number | null;
  paused: boolean;
}

async function hashSummary(): Promise<Summary> {
  const result = await distributed('queues', '--json');
  expect(result.code, result.stderr).toBe(0);
  const list = JSON.parse(result.stdout) as Summary[];
  expect(list.map((q) => q.queue)).toEqual([...QUEUE_NAMES]);
  return list.find((q) => q.queue === 'hash')!;
}

async function jobView(id: string): Promise<Record<string, unknown>> {
  const result = await distributed('jobs', 'get', id, '--json');
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const STACK_LINE = /^\s+at /m;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-operator-'));
  ({ child: redis, url: redisUrl } = await startPrivateRedis());
  // One attempt: a failed job stays failed until an operator retries it.
  queue = new BullMqJobQueue({ connection: redisUrl, retentionMs: 3_600_000, logger, prefix, attempts: 1, backoffMs: 0 });
  workers = await startBullMqWorkers({
    connection: redisUrl,
    handlers: test.handlers,
    blobs: new LocalDiskBlobStore(path.join(dataDir, 'blobs')),
    queues: QUEUE_NAMES,
    concurrency: 2,
    logger,
    blobRetentionMs: 0,
    prefix,
  });
  store = await createStore({ sqlitePath: path.join(dataDir, 'sha224d.sqlite') });
});

afterAll(async () => {
  await workers?.close();
  await queue?.close();
  await store?.close();
  if (redis) await stopRedisServer(redis);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('admin CLI: queues and jobs (distributed mode)', () => {
  it('in embedded mode (no REDIS_URL) every queue command exits 2 saying the queue lives in the server', async () => {
    for (const args of [['queues'], ['queues', '--json'], ['queues', 'pause', 'hash'], ['jobs', 'get', 'x'], ['jobs', 'retry', 'x']]) {
      const result = await embedded(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`error: ${EMBEDDED_QUEUE_MESSAGE}`);
      expect(result.stderr).toContain(`store: SQLite ${path.join(dataDir, 'sha224d.sqlite')}\n`);
      expect(result.stderr).not.toMatch(STACK_LINE);
    }
  });

  it('names the store and Redis it opened on stderr, never a password', async () => {
    const db = await createTestDatabase('postgres');
    try {
      const url = new URL(db.options.databaseUrl!);
      url.password = 'pg-secret-password';
      const result = await admin(
        { DATABASE_URL: url.toString(), REDIS_URL: `redis://:redis-secret@127.0.0.1:${new URL(redisUrl).port}/0`, QUEUE_PREFIX: prefix },
        'accounts',
        'list',
        '--json',
      );
      // The password is wrong for PostgreSQL only if the server checks it; either way the banner comes first.
      const banner = result.stderr.split('\n')[0]!;
      expect(banner).toBe(`store: PostgreSQL 127.0.0.1:5432/test; queue: Redis 127.0.0.1:${new URL(redisUrl).port}/0 (prefix ${prefix})`);
      expect(result.stderr).not.toContain('secret');
    } finally {
      await db.cleanup();
    }
  });

  it('pause holds jobs (waiting, oldest age), resume lets them run', async () => {
    expect(await hashSummary()).toEqual({
      queue: 'hash',
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      completed: 0,
      oldestWaitingSeconds: null,
      paused: false,
    });
    const paused = await distributed('queues', 'pause', 'hash');
    expect(paused).toMatchObject({ code: 0, stdout: 'Paused queue hash\n' });
    expect(paused.stderr).toContain(`queue: Redis 127.0.0.1:${new URL(redisUrl).port} (prefix ${prefix})`);

    const { id } = await queue.submit('hash', hash('held'), { accountId });
    const { id: hmacId } = await queue.submit(
      'hmac',
      { data: 'message', encoding: 'utf8', key: 'hmac-key-never-shown', keyEncoding: 'utf8' },
      { accountId },
    );
    const held = await hashSummary();
    expect(held).toMatchObject({ waiting: 2, active: 0, completed: 0, paused: true });
    expect(held.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);
    expect(held.oldestWaitingSeconds).toBeLessThan(60);
    expect((await queue.get(id))?.state).toBe('queued');

    // The table: one row per queue, hash paused with 2 waiting.
    const table = await distributed('queues');
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^QUEUE\s+WAITING\s+ACTIVE\s+DELAYED\s+FAILED\s+COMPLETED\s+OLDEST WAITING\s+PAUSED$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([...QUEUE_NAMES]);
    expect(lines[1]).toMatch(/^hash\s+2\s+0\s+0\s+0\s+0\s+\d+s\s+yes$/);
    expect(lines[2]).toMatch(/^batch\s+0\s+0\s+0\s+0\s+0\s+-\s+no$/);

    // A waiting job's view: the payload redacted (inputs as sizes, keys gone).
    const hmacView = await jobView(hmacId);
    expect(hmacView).toMatchObject({
      id: hmacId,
      queue: 'hash',
      kind: 'hmac',
      accountId,
      state: 'waiting',
      attemptsMade: 0,
      attempts: 1,
      processedAt: null,
      finishedAt: null,
      payload: { data: '[7 characters]', encoding: 'utf8', key: '[redacted]', keyEncoding: 'utf8' },
    });
    const plain = await distributed('jobs', 'get', hmacId);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^state:\s+waiting$/m);
    expect(plain.stdout + JSON.stringify(hmacView)).not.toContain('hmac-key-never-shown');
    expect(plain.stdout).not.toContain('message');
    expect((await distributed('jobs', 'remove', hmacId)).stdout).toBe(`Removed ${hmacId} (queue hash, was waiting)\n`);

    expect(await distributed('queues', 'resume', 'hash')).toMatchObject({ code: 0, stdout: 'Resumed queue hash\n' });
    const done = await finished(queue, id);
    expect(done.result).toEqual({ digest: sha224Hex('held'), size: 4 });
    expect(await hashSummary()).toMatchObject({ waiting: 0, completed: 1, failed: 0, paused: false, oldestWaitingSeconds: null });
  });

  it('jobs get shows a failure; jobs retry runs the failed job again to completion', async () => {
    // SERVICE_UNAVAILABLE on the first call only; with one attempt the job fails.
    const data = 'flaky:1:retry-me';
    const { id } = await queue.submit('hash', hash(data), { accountId });
    expect((await finished(queue, id)).state).toBe('failed');
    const failed = await jobView(id);
    expect(failed).toMatchObject({
      id,
      kind: 'hash',
      state: 'failed',
      attemptsMade: 1,
      error: { code: 'SERVICE_UNAVAILABLE' },
      payload: { data: `[${data.length} characters]`, encoding: 'utf8' },
    });
    expect(failed.finishedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(JSON.stringify(failed)).not.toContain('retry-me');

    const retried = await distributed('jobs', 'retry', id);
    expect(retried).toMatchObject({ code: 0, stdout: `Retrying ${id} (queue hash)\n` });
    const record = await finished(queue, id);
    expect(record.state).toBe('completed');
    expect(record.result).toEqual({ digest: sha224Hex(data), size: data.length });
    expect(test.calls.get(data)).toBe(2);
    expect(await jobView(id)).toMatchObject({ state: 'completed', result: { digest: sha224Hex(data) } });

    const again = await distributed('jobs', 'retry', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error: Job ${id} is completed; only failed jobs can be retried`);
  });

  it('unknown ids and bad arguments', async () => {
    for (const verb of ['get', 'retry', 'remove']) {
      const result = await distributed('jobs', verb, 'no-such-job');
      expect(result.code, verb).toBe(1);
      expect(result.stderr).toContain('error: No job no-such-job');
      expect(result.stderr).not.toMatch(STACK_LINE);
    }
    const badQueue = await distributed('queues', 'pause', 'nope');
    expect(badQueue.code).toBe(2);
    expect(badQueue.stderr).toContain('Allowed choices are hash, batch, file, url, stream');
    const badDuration = await distributed('jobs', 'clean', 'hash', '--older-than', '1x');
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toContain('expected a duration');
    expect((await distributed('jobs', 'clean', 'hash')).code).toBe(2);
  });

  it('refuses to remove a running job; says so when Redis is unreachable', async () => {
    // The job runs until released, so the refusal below comes while a worker runs it.
    const { id } = await queue.submit('hash', hash('hold:running'), { accountId });
    try {
      await waitFor(
        async () => {
          const state = (await queue.get(id))?.state;
          expect(state, 'a job on its way to a worker').toMatch(/^(queued|active)$/);
          return state === 'active';
        },
        { timeoutMs: 20_000, what: `job ${id} to become active` },
      );
      const refused = await distributed('jobs', 'remove', id);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`error: Job ${id} is active; it cannot be removed while a worker runs it`);
    } finally {
      test.release('running');
    }
    // Released, it still completes.
    expect((await finished(queue, id, 20_000)).state).toBe('completed');

    const closed = await pickUnusedPort();
    const away = await admin({ REDIS_URL: `redis://127.0.0.1:${closed}`, QUEUE_PREFIX: prefix }, 'queues');
    expect(away.code).toBe(1);
    expect(away.stderr).toMatch(/^error: Redis is unreachable: /m);
    expect(away.stderr).not.toMatch(STACK_LINE);
  });

  it('jobs clean removes completed and failed jobs older than the given age', async () => {
    const { id } = await queue.submit('hash', hash('invalid:clean-me'), { accountId });
    expect((await finished(queue, id)).state).toBe('failed');
    const before = await hashSummary();
    expect(before).toMatchObject({ completed: 3, failed: 1 });

    const none = await distributed('jobs', 'clean', 'hash', '--older-than', '1d', '--json');
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({ queue: 'hash', completed: 0, failed: 0 });

    const all = await distributed('jobs', 'clean', 'hash', '--older-than', '0s');
    expect(all).toMatchObject({ code: 0, stdout: 'Removed 3 completed and 1 failed jobs from queue hash\n' });
    expect(await hashSummary()).toMatchObject({ completed: 0, failed: 0 });
    expect(await queue.get(id)).toBeUndefined();
  });

  it('queues pause|resume, jobs retry <id> and jobs remove take --json too', async () => {
    expect(JSON.parse((await distributed('queues', 'pause', 'hash', '--json')).stdout)).toEqual({ queue: 'hash', paused: true });
    const { id: held } = await queue.submit('hash', hash('held-for-json'), { accountId });
    const removed = await distributed('jobs', 'remove', held, '--json');
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ id: held, queue: 'hash', state: 'waiting', removed: true });
    expect(JSON.parse((await distributed('queues', 'resume', 'hash', '--json')).stdout)).toEqual({ queue: 'hash', paused: false });

    const { id } = await queue.submit('hash', hash('flaky:1:json-retry'), { accountId });
    expect((await finished(queue, id)).state).toBe('failed');
    const retried = await distributed('jobs', 'retry', id, '--json');
    expect(retried.code, retried.stderr).toBe(0);
    // The shape of `jobs retry --all-failed <queue> --json`, for one job.
    expect(JSON.parse(retried.stdout)).toEqual({ queue: 'hash', retried: 1, skipped: 0, id });
    expect((await finished(queue, id)).state).toBe('completed');
  });
});

describe('admin CLI: usage, --json lists, --version', () => {
  it('usage --account --days: per-day production (by generation) and sandbox counts from the store', async () => {
    const account = await store.createAccount({ name: 'usage-co', plan: 'pro' });
    const day = (ago: number): string => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    await store.addUsage(account.id, day(0), 'production', 7);
    await store.addUsage(account.id, day(2), 'production', 5);
    await store.addUsage(account.id, day(0), 'sandbox', 3);
    await store.addUsage(account.id, day(9), 'production', 100); // outside --days 3
    for (const [ago, generation, count] of [
      [0, 'v2', 4],
      [0, 'v1a', 2],
      [0, 'ws', 1],
      [2, 'v1b', 5],
    ] as const) {
      await store.keyUsage.add({ accountId: account.id, day: day(ago), scope: 'production', credential: 'key_x', generation, count });
    }

    const json = await embedded('usage', '--account', account.id, '--days', '3', '--json');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      accountId: account.id,
      from: day(2),
      to: day(0),
      days: [
        { day: day(2), production: 5, v1: 5, v2: 0, websocket: 0, sandbox: 0 },
        { day: day(1), production: 0, v1: 0, v2: 0, websocket: 0, sandbox: 0 },
        { day: day(0), production: 7, v1: 2, v2: 4, websocket: 1, sandbox: 3 },
      ],
    });

    const text = await embedded('usage', '--account', account.id, '--days', '3');
    expect(text.code).toBe(0);
    const rows = text.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/^DAY\s+PRODUCTION\s+V1\s+V2\s+WEBSOCKET\s+SANDBOX$/);
    expect(rows[3]).toMatch(new RegExp(`^${day(0)}\\s+7\\s+2\\s+4\\s+1\\s+3$`));
    expect(rows[4]).toMatch(/^total\s+12\s+7\s+4\s+1\s+3$/);

    // Default 30 days: the 9-day-old count is included.
    const month = JSON.parse((await embedded('usage', '--account', account.id, '--json')).stdout) as {
      days: Array<{ production: number }>;
    };
    expect(month.days).toHaveLength(30);
    expect(month.days.reduce((sum, d) => sum + d.production, 0)).toBe(112);

    const unknown = await embedded('usage', '--account', 'acc_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error: No account acc_nope');
    for (const days of ['0', '367', 'x']) expect((await embedded('usage', '--account', account.id, '--days', days)).code).toBe(2);
    expect((await embedded('usage')).code).toBe(2);
  });

  it('every command takes --json: one choice in deploy/admin/output.ts, not a copy per command', () => {
    const leaves = (command: Command, path: string[] = []): Array<[string, Command]> =>
      command.commands.length === 0 ? [[path.join(' '), command]] : command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
    const commands = leaves(buildProgram());
    expect(commands.map(([name]) => name)).toEqual([
      'accounts create',
      'accounts list',
      'accounts set-plan',
      'keys create',
      'keys list',
      'keys revoke',
      'oauth register',
      'oauth list',
      'oauth delete',
      'jwt issue',
      'queues pause',
      'queues resume',
      'jobs get',
      'jobs failed',
      'jobs retry',
      'jobs remove',
      'jobs clean',
      'usage',
      'users create',
      'users reset-password',
      'users list',
      'webhooks list',
      'webhooks deliveries',
    ]);
    const withoutJson = [...commands, ['queues', buildProgram().commands.find((c) => c.name() === 'queues')!] as [string, Command]]
      .filter(([, command]) => !command.options.some((o) => o.long === '--json'))
      .map(([name]) => name);
    expect(withoutJson).toEqual([]);
  });

  it('accounts, keys, oauth, jwt and users commands print one JSON document with --json', async () => {
    const created = await embedded('accounts', 'create', '--name', 'json-all', '--plan', 'pro', '--json');
    expect(created.code, created.stderr).toBe(0);
    const account = JSON.parse(created.stdout) as { id: string; createdAt: string };
    expect(account).toMatchObject({ id: expect.stringMatching(/^acc_/), name: 'json-all', plan: 'pro', createdAt: expect.any(String) });
    // The account as `accounts list --json` shows it.
    expect(JSON.parse((await embedded('accounts', 'list', '--json')).stdout)).toContainEqual(account);
    expect(JSON.parse((await embedded('accounts', 'set-plan', account.id, 'enterprise', '--json')).stdout)).toEqual({
      id: account.id,
      plan: 'enterprise',
    });

    const key = await embedded('keys', 'create', '--account', account.id, '--type', 'production', '--description', 'ci', '--json');
    expect(key.code, key.stderr).toBe(0);
    const keyDoc = JSON.parse(key.stdout) as { id: string; secret: string };
    const [listedKey] = JSON.parse((await embedded('keys', 'list', '--account', account.id, '--json')).stdout) as unknown[];
    // The key as `keys list --json` shows it, plus its secret (printed this once).
    expect(keyDoc).toEqual({ ...(listedKey as object), secret: expect.stringMatching(/^s224_/) });
    expect(key.stderr).toContain('Store the key now');
    expect(JSON.parse((await embedded('keys', 'revoke', keyDoc.id, '--json')).stdout)).toEqual({
      id: keyDoc.id,
      revoked: true,
      alreadyRevoked: false,
    });
    expect(JSON.parse((await embedded('keys', 'revoke', keyDoc.id, '--json')).stdout)).toEqual({
      id: keyDoc.id,
      revoked: true,
      alreadyRevoked: true,
    });

    const registered = await embedded(
      'oauth',
      'register',
      '--account',
      account.id,
      '--name',
      'app',
      '--redirect-uri',
      'https://app.example/cb',
      '--json',
    );
    expect(registered.code, registered.stderr).toBe(0);
    const client = JSON.parse(registered.stdout) as { clientId: string };
    expect(client).toEqual({ clientId: expect.any(String), clientSecret: expect.any(String), accountId: account.id, isPublic: false });
    expect(JSON.parse((await embedded('oauth', 'delete', client.clientId, '--json')).stdout)).toEqual({
      clientId: client.clientId,
      deleted: true,
    });

    const jwt = await admin(
      { JWT_SECRET: 'j'.repeat(40) },
      'jwt',
      'issue',
      '--account',
      account.id,
      '--permissions',
      'hash:create',
      '--json',
    );
    expect(jwt.code, jwt.stderr).toBe(0);
    expect(JSON.parse(jwt.stdout)).toEqual({
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      accountId: account.id,
      permissions: ['hash:create'],
      lifetimeSeconds: 900,
    });

    const email = `json.${account.id}@example.com`;
    const person = await embedded('users', 'create', '--account', account.id, '--email', email, '--role', 'admin', '--json');
    expect(person.code, person.stderr).toBe(0);
    const personDoc = JSON.parse(person.stdout) as { userId: string };
    expect(personDoc).toEqual({
      userId: expect.any(String),
      email,
      accountId: account.id,
      role: 'admin',
      added: true,
      setupLink: { url: expect.stringMatching(/^http:\/\/.+#token=/), expiresAt: expect.any(String) },
    });
    const reset = await embedded('users', 'reset-password', email, '--json');
    expect(JSON.parse(reset.stdout)).toEqual({
      userId: personDoc.userId,
      email,
      link: { url: expect.stringMatching(/#token=/), expiresAt: expect.any(String) },
    });
    expect(JSON.parse((await embedded('users', 'list', '--account', account.id, '--json')).stdout)).toEqual([
      { email, userId: personDoc.userId, accountId: account.id, role: 'admin', hasPassword: false, name: '' },
    ]);
    // Without --json, the same commands still print for people.
    expect((await embedded('users', 'list', '--account', account.id)).stdout).toMatch(/^EMAIL\s+USER\s+ACCOUNT\s+ROLE\s+PASSWORD\s+NAME\n/);
  });

  it('accounts list, keys list and oauth list take --json (never a secret); --version prints the version', async () => {
    const account = await store.createAccount({ name: 'json-co', plan: 'enterprise' });
    const { secret, record } = await createApiKey(store, { accountId: account.id, type: 'production', description: 'json' });

    const accounts = await embedded('accounts', 'list', '--json');
    expect(accounts.code).toBe(0);
    expect(JSON.parse(accounts.stdout)).toContainEqual({ ...account, createdAt: account.createdAt.toISOString() });

    const keys = await embedded('keys', 'list', '--account', account.id, '--json');
    expect(keys.code).toBe(0);
    const listed = JSON.parse(keys.stdout) as Array<Record<string, unknown>>;
    expect(listed).toEqual([expect.objectContaining({ id: record.id, accountId: account.id, type: 'production', status: 'active' })]);
    expect(keys.stdout).not.toContain(secret.slice(12));
    expect(keys.stdout).not.toMatch(/[0-9a-f]{64}/);

    const oauth = await embedded('oauth', 'list', '--account', account.id, '--json');
    expect(oauth).toMatchObject({ code: 0 });
    expect(JSON.parse(oauth.stdout)).toEqual([]);

    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const version = await embedded(flag);
      expect(version).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
    }
  });
});
