/**
 * BullMQ-only: where finished jobs are announced (the submitting node's own channel for `run`,
 * the shared one for async jobs), what synchronous jobs leave in Redis, cancelled jobs, and the
 * QUEUE_MAX_WAITING bound across nodes. Every test has a fresh namespace on the machine's Redis.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { QUEUE_NAMES, type HashJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { bullQueueName } from '../../shared/naming.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import type { WorkerPool } from '../../shared/queue/types.js';
import { failureOf, finished } from './contract.js';
import { createTestHandlers, digestOf } from './handlers.js';
import { SHARED_REDIS_URL } from './redis-helpers.js';
import { useBullMqFixture } from './bullmq-fixture.js';

const connection = SHARED_REDIS_URL;
const logger = createLogger('silent');
const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const accountId = 'acct-delivery';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const fx = useBullMqFixture('bullmq-delivery-');
const { closers, namespace } = fx;
const test = createTestHandlers();

/** An API node's producer on `prefix`. */
/** `bundleMaxItems: 1`: every synchronous job goes as a job of its own (the unbundled wire). */
async function producer(prefix: string, maxWaiting?: number, bundleMaxItems?: number): Promise<BullMqJobQueue> {
  const queue = new BullMqJobQueue({
    connection,
    retentionMs: 60_000,
    logger,
    prefix,
    ...(maxWaiting === undefined ? {} : { maxWaiting }),
    ...(bundleMaxItems === undefined ? {} : { bundleMaxItems }),
  });
  closers.push(() => queue.close());
  await queue.ping();
  return queue;
}

const workersOn = (prefix: string): Promise<WorkerPool> => fx.workersOn(prefix, test.handlers);

async function keysOf(prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await fx.redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found.sort();
}

/** Keys that belong to one job (its hash, lock, logs, owner key) or list jobs (finished sets, wait list). */
async function jobKeysOf(prefix: string): Promise<string[]> {
  const queueKeys = QUEUE_NAMES.flatMap((name) =>
    ['wait', 'active', 'delayed', 'prioritized', 'completed', 'failed'].map((set) => `${prefix}:${bullQueueName(name)}:${set}`),
  );
  return (await keysOf(prefix)).filter((key) => UUID.test(key) || queueKeys.includes(key));
}

/** Every Redis command `queue`'s own connection sends (BullMQ's Queue objects share it). */
function recordCommands(queue: BullMqJobQueue): string[] {
  const connectionOf = (queue as unknown as { redis: Redis }).redis;
  const sent: string[] = [];
  const original = connectionOf.sendCommand.bind(connectionOf);
  connectionOf.sendCommand = (command: { name: string }) => {
    sent.push(command.name.toLowerCase());
    return original(command as Parameters<typeof original>[0]);
  };
  return sent;
}

/** Every message published on any job-events channel of `prefix`, in order. */
async function listenToAllChannels(prefix: string): Promise<Array<{ channel: string; message: Record<string, unknown> }>> {
  const heard: Array<{ channel: string; message: Record<string, unknown> }> = [];
  const listener = new Redis(connection);
  closers.push(() => Promise.resolve(listener.disconnect()));
  listener.on('pmessage', (_pattern: string, channel: string, message: string) => {
    heard.push({ channel, message: JSON.parse(message) as Record<string, unknown> });
  });
  await listener.psubscribe(`${prefix}:sha224d:job-events*`);
  return heard;
}

describe('finished jobs are announced to the node that waits for them', () => {
  it("a synchronous outcome goes to the submitting node's channel with its result or error: no read-back, no other node hears it", async () => {
    const prefix = namespace();
    const heard = await listenToAllChannels(prefix);
    const nodeA = await producer(prefix, undefined, 1);
    const nodeB = await producer(prefix);
    await workersOn(prefix);
    const heardByB: string[] = [];
    nodeB.onFinished((id) => heardByB.push(id));

    const sent = recordCommands(nodeA);
    const ok = `sync-${randomUUID()}`;
    const bad = `invalid:${randomUUID()}`;
    await expect(nodeA.run('hash', hash(ok), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(ok));
    const error = await failureOf(nodeA.run('hash', hash(bad), { accountId, timeoutMs: 10_000 }));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: 'data is not acceptable', details: 'field: data' });
    // Neither the owner key nor the job hash was read: the message was the answer.
    expect(sent.filter((name) => name === 'get' || name === 'hgetall')).toEqual([]);

    // An async job is announced on the shared channel, by id only; then a marker shows B has heard everything before it.
    const { id: asyncId } = await nodeA.submit('hash', hash(`async-${randomUUID()}`), { accountId });
    await finished(nodeA, asyncId);
    const marker = randomUUID();
    await fx.redis.publish(`${prefix}:sha224d:job-events`, JSON.stringify({ id: marker, state: 'completed' }));
    await expect.poll(() => heardByB.includes(marker) && heard.some((h) => h.message.id === marker), { timeout: 5000 }).toBe(true);

    const okId = test.jobIds.get(ok)!;
    const badId = test.jobIds.get(bad)!;
    expect(heardByB).toContain(asyncId);
    expect(heardByB).not.toContain(okId);
    expect(heardByB).not.toContain(badId);
    const nodeChannel = heard.find((h) => h.message.id === okId)!.channel;
    expect(nodeChannel).toMatch(new RegExp(`^${prefix}:sha224d:job-events:${UUID.source}$`));
    expect(heard.filter((h) => h.message.id === okId || h.message.id === badId)).toEqual([
      { channel: nodeChannel, message: { id: okId, state: 'completed', result: digestOf(ok) } },
      {
        channel: nodeChannel,
        message: {
          id: badId,
          state: 'failed',
          error: { code: 'INVALID_INPUT', message: 'data is not acceptable', details: 'field: data' },
        },
      },
    ]);
    expect(heard.filter((h) => h.message.id === asyncId)).toEqual([
      { channel: `${prefix}:sha224d:job-events`, message: { id: asyncId, state: 'completed' } },
    ]);
  });

  it('a worker that predates replyTo (an id-only message on the shared channel) still answers run, which reads the job', async () => {
    const prefix = namespace();
    // Unbundled: bundles need workers that know them, which is why workers are upgraded first.
    const node = await producer(prefix, undefined, 1);
    const announcer = new Redis(connection);
    closers.push(() => Promise.resolve(announcer.disconnect()));
    // A plain BullMQ worker that announces the way the former workers did.
    const older = new Worker(bullQueueName('hash'), (job) => Promise.resolve(digestOf((job.data as { payload: HashJob }).payload.data)), {
      connection: new Redis(connection, { maxRetriesPerRequest: null }),
      prefix,
    });
    older.on(
      'completed',
      (job) => void announcer.publish(`${prefix}:sha224d:job-events`, JSON.stringify({ id: job.id, state: 'completed' })),
    );
    closers.push(() => older.close());
    const data = `older-${randomUUID()}`;
    await expect(node.run('hash', hash(data), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    expect(await jobKeysOf(prefix)).toEqual([]);
  });
});

describe('what a synchronous job leaves in Redis', () => {
  it('nothing, once run() has answered, whether the job completed or failed', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    await workersOn(prefix);
    const ok = `gone-${randomUUID()}`;
    const bad = `invalid:${randomUUID()}`;
    await expect(node.run('hash', hash(ok), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(ok));
    expect((await failureOf(node.run('hash', hash(bad), { accountId, timeoutMs: 10_000 }))).code).toBe('INVALID_INPUT');
    expect(test.jobIds.get(ok)).toMatch(UUID);
    expect(await jobKeysOf(prefix)).toEqual([]);
    expect((await keysOf(prefix)).filter((key) => key.includes(test.jobIds.get(ok)!) || key.includes(test.jobIds.get(bad)!))).toEqual([]);
  });

  it('with an idempotency key, the job and its key stay for the retention and replay on any node', async () => {
    const prefix = namespace();
    const nodeA = await producer(prefix);
    const nodeB = await producer(prefix);
    await workersOn(prefix);
    const data = `idempotent-${randomUUID()}`;
    const idempotencyKey = randomUUID();
    await expect(nodeA.run('hash', hash(data), { accountId, idempotencyKey, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    const id = test.jobIds.get(data)!;
    expect(await fx.redis.exists(`${prefix}:${bullQueueName('hash')}:${id}`, `${prefix}:sha224d:idem:${accountId}:${idempotencyKey}`)).toBe(
      2,
    );
    await expect(nodeB.run('hash', hash(data), { accountId, idempotencyKey, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    await expect(nodeA.run('hash', hash(data), { accountId, idempotencyKey, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    expect(test.calls.get(data)).toBe(1);
    expect(await nodeB.get(id)).toMatchObject({ state: 'completed', result: digestOf(data) });
  });
});

describe('jobs nobody waits for any more (no workers running)', () => {
  it('a run that times out has its queued job removed: 503 with Retry-After, no key left, and it never runs', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    const data = `timed-out-${randomUUID()}`;
    const error = await failureOf(node.run('hash', hash(data), { accountId, timeoutMs: 500 }));
    expect(error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfter: 5,
      details: 'no worker took the job within 500 ms; it was cancelled — retry later',
    });
    expect(await jobKeysOf(prefix)).toEqual([]);
    await workersOn(prefix);
    const after = `after-${randomUUID()}`;
    await expect(node.run('hash', hash(after), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(after));
    expect(test.calls.get(data)).toBeUndefined();
  });

  it("a caller that leaves while its job is queued takes the job with it: run rejects with the signal's reason", async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    const caller = new AbortController();
    const data = `left-${randomUUID()}`;
    const running = node.run('hash', hash(data), { accountId, timeoutMs: 30_000, signal: caller.signal });
    const outcome = running.then(
      () => 'resolved',
      (err: unknown) => err,
    );
    const waitList = `${prefix}:${bullQueueName('hash')}:wait`;
    await expect.poll(() => fx.redis.llen(waitList), { timeout: 5000 }).toBe(1);
    const reason = new ServiceError('INVALID_INPUT', { message: 'Request was aborted' });
    caller.abort(reason);
    expect(await outcome).toBe(reason);
    expect(await jobKeysOf(prefix)).toEqual([]);
    await workersOn(prefix);
    const after = `after-${randomUUID()}`;
    await expect(node.run('hash', hash(after), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(after));
    expect(test.calls.get(data)).toBeUndefined();
  });
});

describe('QUEUE_MAX_WAITING', () => {
  it('once a queue holds maxWaiting untaken jobs, every node refuses more with 503 and Retry-After; it accepts again once drained', async () => {
    const prefix = namespace();
    const nodeA = await producer(prefix, 3);
    const nodeB = await producer(prefix, 3);
    const accepted: string[] = [];
    let refused: unknown;
    // The count is read at most every 250 ms per node, so a few more may be admitted before the refusals start.
    await expect
      .poll(
        async () => {
          refused = await nodeA.submit('hash', hash(`queued-${randomUUID()}`), { accountId }).then(
            ({ id }) => void accepted.push(id),
            (err: unknown) => err,
          );
          return refused instanceof ServiceError;
        },
        { timeout: 10_000, interval: 50 },
      )
      .toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    expect(await fx.redis.llen(`${prefix}:${bullQueueName('hash')}:wait`)).toBe(accepted.length);
    expect(refused).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfter: 5,
      details: 'the hash queue is full; retry later',
    });
    expect((await failureOf(nodeB.submit('hash', hash(`other-node-${randomUUID()}`), { accountId }))).details).toBe(
      'the hash queue is full; retry later',
    );
    expect((await failureOf(nodeB.run('hash', hash(`sync-${randomUUID()}`), { accountId, timeoutMs: 10_000 }))).code).toBe(
      'SERVICE_UNAVAILABLE',
    );
    // Another queue is not affected.
    expect(
      (await nodeB.submit('batch', { items: [{ id: 'a', data: 'abc' }], encoding: 'utf8', parallel: true, output: 'hex' }, { accountId }))
        .created,
    ).toBe(true);

    await workersOn(prefix);
    await Promise.all(accepted.map((id) => finished(nodeA, id)));
    const again = `again-${randomUUID()}`;
    await expect
      .poll(() => nodeA.run('hash', hash(again), { accountId, timeoutMs: 10_000 }).catch((err: ServiceError) => err.code), {
        timeout: 5000,
        interval: 100,
      })
      .toEqual(digestOf(again));
  });

  it('0 is unbounded; a negative or fractional bound is refused, naming it', async () => {
    const prefix = namespace();
    const unbounded = await producer(prefix, 0);
    for (let i = 0; i < 5; i++) expect((await unbounded.submit('hash', hash(`unbounded-${i}`), { accountId })).created).toBe(true);
    expect(() => new BullMqJobQueue({ connection, retentionMs: 60_000, logger, maxWaiting: -1 })).toThrow(/maxWaiting/);
    expect(() => new BullMqJobQueue({ connection, retentionMs: 60_000, logger, maxWaiting: 1.5 })).toThrow(/maxWaiting/);
  });
});
