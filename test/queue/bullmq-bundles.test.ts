/**
 * BullMQ-only: synchronous small jobs an API node receives in one event-loop turn travel as one
 * bundle (bullmq-queue.ts runBundled): one BullMQ job per queue per turn, each item answered,
 * failed and retried on its own, deadlines and departed callers as for a job of its own. Real
 * Redis, a fresh namespace per test.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import type { HashJob } from '../../shared/jobs/contracts.js';
import { createLogger } from '../../shared/log.js';
import { createMetrics, type Metrics } from '../../shared/metrics/catalogue.js';
import { BullMqJobQueue } from '../../shared/queue/bullmq-queue.js';
import type { JobHandlers } from '../../shared/queue/types.js';
import { createJobHandlers } from '../../workers/registry.js';
import { failureOf, finished } from './contract.js';
import { createTestHandlers, digestOf } from './handlers.js';
import { SHARED_REDIS_URL } from './redis-helpers.js';
import { useBullMqFixture } from './bullmq-fixture.js';

const connection = SHARED_REDIS_URL;
const logger = createLogger('silent');
const hash = (data: string): HashJob => ({ data, encoding: 'utf8' });
const accountId = 'acct-bundles';
const sha224 = (data: string): string => createHash('sha224').update(data).digest('hex');

const fx = useBullMqFixture('bullmq-bundles-');
const { closers, namespace } = fx;
const test = createTestHandlers();

async function producer(prefix: string): Promise<BullMqJobQueue> {
  const queue = new BullMqJobQueue({ connection, retentionMs: 60_000, logger, prefix, attempts: 3, backoffMs: 20 });
  closers.push(() => queue.close());
  await queue.ping();
  return queue;
}

async function workersOn(prefix: string, handlers: JobHandlers = test.handlers, metrics?: Metrics): Promise<void> {
  await fx.workersOn(prefix, handlers, metrics);
}

/** Messages on the node channels of `prefix` (bundles answer there only). */
async function nodeMessages(prefix: string): Promise<Array<Record<string, unknown>>> {
  const heard: Array<Record<string, unknown>> = [];
  const listener = new Redis(connection);
  closers.push(() => Promise.resolve(listener.disconnect()));
  listener.on('pmessage', (_pattern: string, _channel: string, message: string) =>
    heard.push(JSON.parse(message) as Record<string, unknown>),
  );
  await listener.psubscribe(`${prefix}:sha224d:job-events:*`);
  return heard;
}

/** Keys of the namespace naming a job (a UUID), or a queue's job lists. */
async function jobKeysOf(prefix: string): Promise<string[]> {
  const keys = await fx.redis.keys(`${prefix}:*`);
  return keys.filter((key) => /[0-9a-f]{8}-[0-9a-f]{4}-/.test(key) || /:(wait|active|delayed|prioritized|completed|failed)$/.test(key));
}

const bundleIdOf = (jobId: string | undefined): string | undefined => jobId?.split('.')[0];

describe('synchronous small jobs of one event-loop turn', () => {
  it('travel as one BullMQ job with one answer, each item getting its own result', async () => {
    const prefix = namespace();
    const heard = await nodeMessages(prefix);
    const node = await producer(prefix);
    await workersOn(prefix);
    const inputs = Array.from({ length: 10 }, (_, i) => `turn-${i}-${randomUUID()}`);
    const results = await Promise.all(inputs.map((data) => node.run('hash', hash(data), { accountId, timeoutMs: 10_000 })));
    expect(results).toEqual(inputs.map(digestOf));
    const bundles = new Set(inputs.map((data) => bundleIdOf(test.jobIds.get(data))));
    expect(bundles.size).toBe(1);
    expect(inputs.map((data) => test.jobIds.get(data)?.split('.')[1])).toEqual(inputs.map((_, i) => String(i)));
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ state: 'completed', outcomes: inputs.map((data) => ({ result: digestOf(data) })) });
    // Answered: nothing of the bundle stays in Redis.
    await expect.poll(() => jobKeysOf(prefix)).toEqual([]);
  });

  it('a bundle holds at most 64 items: 70 runs of one turn make two', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    await workersOn(prefix);
    const inputs = Array.from({ length: 70 }, (_, i) => `cap-${i}-${randomUUID()}`);
    await expect(Promise.all(inputs.map((data) => node.run('hash', hash(data), { accountId, timeoutMs: 10_000 })))).resolves.toEqual(
      inputs.map(digestOf),
    );
    const bundles = inputs.map((data) => bundleIdOf(test.jobIds.get(data)));
    expect(new Set(bundles).size).toBe(2);
    expect(bundles.filter((id) => id === bundles[0])).toHaveLength(64);
  });

  it("a bad item fails alone; a retryable one is retried without holding back its siblings' answers", async () => {
    const prefix = namespace();
    const heard = await nodeMessages(prefix);
    const node = await producer(prefix);
    await workersOn(prefix);
    const tag = randomUUID();
    const ok = `ok-${tag}`;
    const invalid = `invalid:${tag}`;
    const crash = `crash:${tag}`;
    const flaky = `flaky:1:${tag}`;
    const runs = [ok, invalid, crash, flaky].map((data) => node.run('hash', hash(data), { accountId, timeoutMs: 10_000 }));
    await expect(runs[0]).resolves.toEqual(digestOf(ok));
    expect(await failureOf(runs[1]!)).toMatchObject({ code: 'INVALID_INPUT', message: 'data is not acceptable', details: 'field: data' });
    const internal = await failureOf(runs[2]!);
    expect(internal).toMatchObject({ code: 'INTERNAL_ERROR', message: 'Internal error' });
    expect(JSON.stringify(internal)).not.toContain('secret');
    await expect(runs[3]).resolves.toEqual(digestOf(flaky));
    // One bundle: crash ran its 3 attempts, flaky 2; the final items ran once and were answered by the first attempt.
    expect(new Set([ok, invalid, crash, flaky].map((data) => bundleIdOf(test.jobIds.get(data)))).size).toBe(1);
    expect([ok, invalid, crash, flaky].map((data) => test.calls.get(data))).toEqual([1, 1, 3, 2]);
    expect(heard[0]).toMatchObject({
      state: 'partial',
      outcomes: [{ result: digestOf(ok) }, { error: { code: 'INVALID_INPUT' } }, null, null],
    });
    await expect.poll(() => jobKeysOf(prefix)).toEqual([]);
  });

  it('hash, hmac and verify share a bundle (one queue) and answer as node:crypto does, errors included', async () => {
    const prefix = namespace();
    const heard = await nodeMessages(prefix);
    const node = await producer(prefix);
    const metrics = createMetrics({ defaults: false });
    await workersOn(prefix, createJobHandlers({ allowLoopbackUrls: false }), metrics);
    const data = `mixed-${randomUUID()}`;
    const runs = [
      node.run('hash', hash(data), { accountId, timeoutMs: 10_000 }),
      node.run('hmac', { data, encoding: 'utf8', key: 'secret', keyEncoding: 'utf8' }, { accountId, timeoutMs: 10_000 }),
      node.run('verify', { data, encoding: 'utf8', expected: sha224(data) }, { accountId, timeoutMs: 10_000 }),
      node.run('verify', { data, encoding: 'utf8', expected: sha224('other') }, { accountId, timeoutMs: 10_000 }),
      node.run('hash', { data: 'not base64!', encoding: 'base64' }, { accountId, timeoutMs: 10_000 }),
    ];
    const size = Buffer.byteLength(data);
    await expect(runs[0]).resolves.toEqual({ digest: sha224(data), size });
    await expect(runs[1]).resolves.toEqual({ digest: createHmac('sha224', 'secret').update(data).digest('hex'), size });
    await expect(runs[2]).resolves.toEqual({ digest: sha224(data), size, valid: true });
    await expect(runs[3]).resolves.toEqual({ digest: sha224(data), size, valid: false });
    expect((await failureOf(runs[4]!)).code).toBe('INVALID_INPUT');
    expect(heard).toHaveLength(1);
    // Counted per item, by its own kind, as jobs of the queue path.
    const count = async (name: string, labels: Record<string, string>): Promise<number | undefined> =>
      (await metrics.registry.getSingleMetric(name)?.get())?.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
        ?.value;
    expect(await count('sha224d_jobs_completed_total', { kind: 'hash', path: 'queue' })).toBe(1);
    expect(await count('sha224d_jobs_completed_total', { kind: 'hmac', path: 'queue' })).toBe(1);
    expect(await count('sha224d_jobs_completed_total', { kind: 'verify', path: 'queue' })).toBe(2);
    expect(await count('sha224d_jobs_failed_total', { kind: 'hash', code: 'INVALID_INPUT' })).toBe(1);
  });

  it('an item still running at the deadline answers JOB_TIMEOUT naming <bundle>.<index>, readable until it completes', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    await workersOn(prefix);
    const tag = randomUUID();
    const quick = `quick-${tag}`;
    const held = `hold:${tag}`;
    const [first, second] = [quick, held].map((data) => failureOf(node.run('hash', hash(data), { accountId, timeoutMs: 1000 })));
    const error = await second!;
    expect(error.code).toBe('JOB_TIMEOUT');
    const jobId = String(error.extra?.job_id);
    expect(jobId).toMatch(/^[0-9a-f-]{36}\.1$/);
    expect(jobId).toBe(test.jobIds.get(held));
    // Its sibling is in the same running bundle, so it answers alike, naming its own place.
    expect((await first!).extra?.job_id).toBe(`${bundleIdOf(jobId)}.0`);
    expect(await node.get(jobId)).toMatchObject({ id: jobId, state: 'active', kind: 'hash', accountId, payload: hash(held) });
    test.release(tag);
    expect(await finished(node, jobId)).toMatchObject({ id: jobId, state: 'completed', kind: 'hash', accountId, result: digestOf(held) });
    expect(await node.get(`${bundleIdOf(jobId)}.0`)).toMatchObject({ state: 'completed', result: digestOf(quick) });
    expect(await node.get(`${bundleIdOf(jobId)}.7`)).toBeUndefined();
    expect(await node.get(String(bundleIdOf(jobId)))).toBeUndefined();
  });

  it('a bundle no worker took by the deadline is removed: every item answers 503 with Retry-After and never runs', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    const inputs = [`late-a-${randomUUID()}`, `late-b-${randomUUID()}`];
    const errors = await Promise.all(inputs.map((data) => failureOf(node.run('hash', hash(data), { accountId, timeoutMs: 300 }))));
    for (const error of errors) expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 5 });
    expect(await jobKeysOf(prefix)).toEqual([]);
    await workersOn(prefix);
    const after = `after-${randomUUID()}`;
    await expect(node.run('hash', hash(after), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(after));
    for (const data of inputs) expect(test.calls.get(data)).toBeUndefined();
  });

  it('callers gone: before the bundle leaves, their items never go; once every caller of a queued bundle is gone, it is removed', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    const reason = new ServiceError('INVALID_INPUT', { message: 'Request was aborted' });
    // Gone in the same turn: nothing is sent.
    const early = new AbortController();
    const earlyData = `early-${randomUUID()}`;
    const earlyRun = node.run('hash', hash(earlyData), { accountId, timeoutMs: 20_000, signal: early.signal });
    early.abort(reason);
    await expect(earlyRun).rejects.toBe(reason);
    expect(await jobKeysOf(prefix)).toEqual([]);
    // Queued (no workers): one caller gone keeps the bundle; both gone removes it.
    const left = [new AbortController(), new AbortController()];
    const data = [`gone-a-${randomUUID()}`, `gone-b-${randomUUID()}`];
    const runs = data.map((d, i) => node.run('hash', hash(d), { accountId, timeoutMs: 20_000, signal: left[i]!.signal }));
    await expect.poll(async () => (await jobKeysOf(prefix)).length).toBeGreaterThan(0);
    left[0]!.abort(reason);
    const other = new ServiceError('INVALID_INPUT', { message: 'Request was aborted', details: 'second' });
    left[1]!.abort(other);
    await expect(runs[0]).rejects.toBe(reason);
    await expect(runs[1]).rejects.toBe(other);
    await expect.poll(() => jobKeysOf(prefix)).toEqual([]);
    await workersOn(prefix);
    const after = `after-${randomUUID()}`;
    await expect(node.run('hash', hash(after), { accountId, timeoutMs: 10_000 })).resolves.toEqual(digestOf(after));
    for (const d of [earlyData, ...data]) expect(test.calls.get(d)).toBeUndefined();
  });

  it('runs with an Idempotency-Key are not bundled: they keep their own job and key', async () => {
    const prefix = namespace();
    const node = await producer(prefix);
    await workersOn(prefix);
    const data = `keyed-${randomUUID()}`;
    const idempotencyKey = randomUUID();
    await expect(node.run('hash', hash(data), { accountId, idempotencyKey, timeoutMs: 10_000 })).resolves.toEqual(digestOf(data));
    expect(test.jobIds.get(data)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await node.get(test.jobIds.get(data)!)).toMatchObject({ state: 'completed', result: digestOf(data) });
  });
});
