/**
 * Distributed mode on the machine's Redis and PostgreSQL: a BullMQ job's finish becomes a
 * `webhook` queue event, then a signed delivery; and a webhook worker killed (SIGKILL) in the
 * middle of an attempt — an `attempt` job's or an `event` job's first — has the attempt taken
 * over, so the delivery arrives at least once, with the same webhook-id every time.
 */
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskBlobStore } from '../../shared/blob/local-disk.js';
import { createLogger } from '../../shared/log.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import { createRedis, closeRedis } from '../../shared/queue/redis-connection.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { BullMqWebhookProducer } from '../../shared/webhooks/bullmq.js';
import { EventDeliveries } from '../../shared/webhooks/event-deliveries.js';
import { openWebhookCore, type WebhookCore } from '../../shared/webhooks/open.js';
import { WebhookService } from '../../shared/webhooks/service.js';
import { startBullMqWorkers } from '../../workers/bullmq/pool.js';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '../../workers/bullmq/webhooks.js';
import { createJobHandlers } from '../../workers/registry.js';
import { spawnEntry } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { dropPrefix, freshPrefix, SHARED_REDIS_URL } from '../queue/redis-helpers.js';
import { createTestDatabase, type TestDatabase } from '../store/engines.js';
import { startReceiver, type Receiver } from './receiver.js';

const logger = createLogger('silent');
const secretsKey = randomBytes(32).toString('hex');
let db: TestDatabase;
let store: KyselyAccountStore;
let core: WebhookCore;
/** A webhook worker on the shared Redis under `prefix`, two jobs and two requests per endpoint at once. */
const webhookWorker = (prefix: string, options: Partial<WebhookWorkerOptions> = {}): Promise<WebhookWorker> =>
  startWebhookWorker({
    connection: SHARED_REDIS_URL,
    prefix,
    core,
    logger,
    concurrency: 2,
    perEndpoint: 2,
    rescueIntervalMs: 0,
    ...options,
  });
let rx: Receiver;
let accountId: string;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  db = await createTestDatabase('postgres');
  store = await createStore(db.options);
  const opened = await openWebhookCore(
    {
      mode: 'distributed',
      dataDir: '/nonexistent',
      SECRETS_KEY: secretsKey,
      SECRETS_KEY_PREVIOUS: undefined,
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0,50ms,50ms',
      WEBHOOK_TIMEOUT_MS: 60_000,
      WEBHOOK_DISABLE_AFTER_DAYS: 5,
      WEBHOOK_SECRET_OVERLAP_HOURS: 24,
    },
    store.db,
    logger,
  );
  core = opened!;
  rx = await startReceiver();
  accountId = (await store.createAccount({ name: 'dist-hooks', plan: 'enterprise' })).id;
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await rx.close();
  await store.close();
  await db.cleanup();
});

function serviceOn(prefix: string): WebhookService {
  const redis = createRedis(SHARED_REDIS_URL, 'producer', { logger });
  const producer = new BullMqWebhookProducer(redis, prefix);
  closers.push(async () => {
    await producer.close();
    await closeRedis(redis);
  });
  return new WebhookService({ store: core.store, box: core.box, schedule: producer.schedule, secretOverlapMs: 0 });
}

describe('distributed webhooks (BullMQ webhook queue)', () => {
  it("a BullMQ async job's finish reaches the receiver as a signed job.completed", async () => {
    const prefix = freshPrefix();
    const hooks = await webhookWorker(prefix);
    const pool = await startBullMqWorkers({
      connection: SHARED_REDIS_URL,
      prefix,
      handlers: createJobHandlers({ allowLoopbackUrls: false }),
      blobs: new LocalDiskBlobStore('/tmp/unused-blobs'),
      queues: ['hash'],
      concurrency: 1,
      logger,
      blobRetentionMs: 0,
      onJobFinished: hooks.onJobFinished,
    });
    const producer = new BullMqJobQueue({ connection: SHARED_REDIS_URL, retentionMs: 60_000, logger, prefix });
    closers.push(async () => {
      await producer.close();
      await pool.close();
      await hooks.close();
      await dropPrefix(SHARED_REDIS_URL, prefix);
    });
    const { secret } = await serviceOn(prefix).createEndpoint({ accountId, url: rx.url('/dist') });
    const { id } = await producer.submit('hash', { data: 'distributed', encoding: 'utf8' }, { accountId, webhook: {} });
    const [req] = await waitFor(
      () => rx.received.filter((r) => r.path === '/dist').length === 1 && rx.received.filter((r) => r.path === '/dist'),
      {
        timeoutMs: 20_000,
      },
    );
    const event = new Webhook(secret).verify(req!.body, req!.headers) as { type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { job_id: id, kind: 'hash', status: 'completed', hash: createHash('sha224').update('distributed').digest('hex') },
    });
  });

  it('a webhook worker killed mid-attempt of a queued attempt (a replay, a test event): another delivers it with the same webhook-id', async () => {
    await killedMidDelivery('/killed-attempt', async (prefix, endpointAccount) => {
      await serviceOn(prefix).jobFinished({ id: 'job-killed-attempt', kind: 'hash', accountId: endpointAccount, state: 'completed' });
    });
  });

  it("a webhook worker killed mid-way through an event job's first attempt: the event job, run again, delivers it with the same webhook-id", async () => {
    await killedMidDelivery('/killed-event', async (prefix, endpointAccount) => {
      const redis = createRedis(SHARED_REDIS_URL, 'producer', { logger });
      const producer = new BullMqWebhookProducer(redis, prefix);
      closers.push(async () => {
        await producer.close();
        await closeRedis(redis);
      });
      await producer.event({ id: 'job-killed-event', kind: 'hash', accountId: endpointAccount, state: 'completed' }, {});
    });
  });

  it("the event job's INSERT: a re-run returns the unattempted delivery again (same id), none once an attempt is recorded", async () => {
    const account = (await store.createAccount({ name: 'dist-hooks-insert', plan: 'enterprise' })).id;
    const service = new WebhookService({ store: core.store, box: core.box, schedule: () => Promise.resolve(), secretOverlapMs: 0 });
    const a = await service.createEndpoint({ accountId: account, url: rx.url('/insert-a') });
    const b = await service.createEndpoint({ accountId: account, url: rx.url('/insert-b'), eventTypes: ['job.failed'] });
    const events = new EventDeliveries(core.db, core.store);
    const job = { id: 'job-insert', kind: 'hash', accountId: account, state: 'completed' as const };

    const first = await events.record(job, undefined);
    // Only the endpoint whose filter takes job.completed; its row carries the payload the attempt signs.
    expect(first.map((f) => f.endpoint.id)).toEqual([a.endpoint.id]);
    expect(first[0]!.delivery).toMatchObject({ endpointId: a.endpoint.id, attempts: 0, isTest: false });
    expect(JSON.parse(first[0]!.delivery.payload)).toMatchObject({ type: 'job.completed', data: { job_id: 'job-insert' } });

    const again = await events.record(job, undefined);
    expect(again.map((f) => f.delivery.id)).toEqual([first[0]!.delivery.id]);
    // Named at submission: that endpoint alone, whatever its filter.
    const targeted = await events.record({ ...job, id: 'job-insert-b' }, { endpointId: b.endpoint.id });
    expect(targeted.map((f) => f.endpoint.id)).toEqual([b.endpoint.id]);

    await core.store.recordAttempt(first[0]!.delivery.id, {
      status: 'pending',
      nextAttemptAt: Date.now() + 60_000,
      statusCode: 500,
      error: undefined,
      latencyMs: 1,
      response: undefined,
    });
    expect(await events.record(job, undefined)).toEqual([]);
    const rows = await core.store.deliveries({ endpointId: a.endpoint.id, limit: 10 });
    expect(rows.map((r) => [r.id, r.attempts])).toEqual([[first[0]!.delivery.id, 1]]);
  });
});

/**
 * The real `npm run worker` (dist/worker.js, built by the global setup) is killed (SIGKILL) while
 * the receiver holds its request unanswered; a worker started after it must send the same delivery
 * again (at least once), with the same webhook-id, and record it delivered.
 */
async function killedMidDelivery(hookPath: string, trigger: (prefix: string, accountId: string) => Promise<void>): Promise<void> {
  const prefix = freshPrefix();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-hooks-worker-'));
  // The shortest lock its configuration allows: after the kill, its lock lapses within 1 s.
  const child = spawnEntry(
    'worker',
    {
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATABASE_URL: db.options.databaseUrl!,
      DATA_DIR: dataDir,
      SECRETS_KEY: secretsKey,
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0,50ms,50ms',
      WEBHOOK_TIMEOUT_MS: '60000',
      WORKER_LOCK_MS: '1000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      METRICS_PORT: '0',
    },
    ['--queues', 'hash', '--concurrency', '1'],
  );
  closers.push(async () => {
    await child.stop('SIGKILL');
    await dropPrefix(SHARED_REDIS_URL, prefix);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await child.waitFor(/worker ready/);
  rx.script(hookPath, { status: 0, hang: true });
  const account = (await store.createAccount({ name: `dist-hooks${hookPath.replace('/', '-')}`, plan: 'enterprise' })).id;
  const { endpoint, secret } = await serviceOn(prefix).createEndpoint({ accountId: account, url: rx.url(hookPath) });
  await trigger(prefix, account);
  // The child has sent the request and waits for an answer that never comes: kill it there.
  await waitFor(() => rx.received.some((r) => r.path === hookPath), { timeoutMs: 20_000 });
  await child.stop('SIGKILL');

  const survivor = await webhookWorker(prefix, {
    lockDurationMs: 1000,
    // Checked every 250 ms: the killed worker's job is taken over soon after its lock lapses.
    stalledIntervalMs: 250,
  });
  closers.push(() => survivor.close());
  const reqs = await waitFor(
    () => rx.received.filter((r) => r.path === hookPath).length >= 2 && rx.received.filter((r) => r.path === hookPath),
    { timeoutMs: 30_000 },
  );
  expect(new Set(reqs.map((r) => r.headers['webhook-id'])).size).toBe(1);
  for (const r of reqs) new Webhook(secret).verify(r.body, r.headers);
  const delivered = await waitFor(async () => {
    const [d] = await core.store.deliveries({ endpointId: endpoint.id, limit: 1 });
    return d?.status === 'delivered' && d;
  });
  expect(delivered.id).toBe(reqs[0]!.headers['webhook-id']);
  // One delivery for the event, however many times its job ran.
  expect(await core.store.deliveries({ endpointId: endpoint.id, limit: 10 })).toHaveLength(1);
}
