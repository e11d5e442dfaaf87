/**
 * The per-credential usage breakdown: accepted requests that name their credential reach
 * usage_key_daily per (credential, generation) in the same flush as the account total, on SQLite
 * and PostgreSQL; refused requests count nowhere; a refused flush is sent again as it was, and a
 * flush applied once is never applied twice, even when its answer was lost.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../shared/errors.js';
import { createMemoryLimiter } from '../../shared/limits/limiter.js';
import { parsePlanCatalog } from '../../shared/limits/plans.js';
import { utcDayOf } from '../../shared/limits/rules.js';
import { UsageBuffer, type UsageSink } from '../../shared/limits/usage-buffer.js';
import { KyselyUsageFlushes, USAGE_FLUSH_ID_RETENTION_MS } from '../../shared/store/kysely-usage-flush.js';
import type { UsageFlush } from '../../shared/store/types.js';
import { ENGINES, storeOnEngine } from '../store/engines.js';
import { FakeUsageStore } from './helpers.js';

describe.each(ENGINES)('usage by key on %s', (engine) => {
  const db = storeOnEngine(engine);

  it('counts accepted requests per credential and generation beside the account total', async () => {
    const account = await db.store.createAccount({ name: 'by-key', plan: 'free' });
    const catalog = parsePlanCatalog({ plans: { free: { dailyQuota: 10, v2PerSecond: null, v1PerSecond: null, v1PerMinute: null } } });
    const limiter = createMemoryLimiter({ catalog, store: db.store, flushIntervalMs: 60_000 });
    const base = { accountId: account.id, plan: 'free', keyType: 'production', sandbox: false } as const;
    const sent = [
      ...Array.from({ length: 4 }, () => ({ ...base, generation: 'v2' as const, credential: 'key_a' })),
      ...Array.from({ length: 3 }, () => ({ ...base, generation: 'v1b' as const, credential: 'key_a' })),
      ...Array.from({ length: 2 }, () => ({ ...base, generation: 'ws' as const, credential: 'oauth:s224c_x' })),
      { ...base, generation: 'v2' as const }, // no credential named: total only
      ...Array.from({ length: 5 }, () => ({ ...base, generation: 'v2' as const, credential: 'key_b' })), // over the quota of 10
    ];
    const decisions = [];
    for (const req of sent) decisions.push(await limiter.consume(req));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    await limiter.close();

    const day = utcDayOf(Date.now());
    expect(await db.store.getUsage(account.id, day, 'production')).toBe(10);
    const rows = await db.store.keyUsage.listByCredential(account.id, 'production', day, day);
    expect(rows.map((r) => [r.credential, r.generation, r.count])).toEqual([
      ['key_a', 'v1b', 3],
      ['key_a', 'v2', 4],
      ['oauth:s224c_x', 'ws', 2],
    ]);
  });

  // A node whose connection went silent right after COMMIT: the database applied the flush, the
  // node never heard so. It sends the same flush again, and the account must be billed once.
  it('a flush whose commit succeeded but whose answer was lost is not counted again when sent again', async () => {
    const account = await db.store.createAccount({ name: 'lost-answer', plan: 'free' });
    let loseAnswers = 1;
    const sink: UsageSink = {
      getUsage: (...args) => db.store.getUsage(...args),
      async applyUsage(flush) {
        await db.store.applyUsage(flush);
        if (loseAnswers-- > 0) throw new ServiceError('SERVICE_UNAVAILABLE', { details: 'the database is unavailable', retryAfter: 5 });
      },
    };
    const buffer = new UsageBuffer(sink);
    const day = '2030-03-01';
    const served = (n: number, credential: string): void => {
      for (let i = 0; i < n; i++) buffer.add(account.id, day, 'production', 1, { credential, generation: 'v2' });
    };
    served(1354, 'key_a');
    await expect(buffer.flush()).rejects.toThrow('Service temporarily unavailable');
    expect(await db.store.getUsage(account.id, day, 'production')).toBe(1354); // committed, answer lost
    expect(buffer.unflushed(account.id, day, 'production')).toBe(1354); // the node cannot know: kept
    served(14, 'key_b');
    await buffer.flush();
    await buffer.flush();
    expect(buffer.unflushed(account.id, day, 'production')).toBe(0);
    expect(await db.store.getUsage(account.id, day, 'production')).toBe(1368);
    const rows = await db.store.keyUsage.listByCredential(account.id, 'production', day, day);
    expect(rows.map((r) => [r.credential, r.count])).toEqual([
      ['key_a', 1354],
      ['key_b', 14],
    ]);
  });

  it('applies a flush id once; ids older than a day are pruned', async () => {
    const account = await db.store.createAccount({ name: 'flush-ids', plan: 'free' });
    const id = `flush-${randomUUID()}`;
    const flush = { id, totals: [{ accountId: account.id, day: '2030-03-02', scope: 'sandbox' as const, count: 7 }], byKey: [] };
    await db.store.applyUsage(flush);
    await db.store.applyUsage(flush);
    await Promise.all([db.store.applyUsage(flush), db.store.applyUsage(flush)]);
    expect(await db.store.getUsage(account.id, '2030-03-02', 'sandbox')).toBe(7);
    // An account deleted meanwhile is skipped, not a flush refused for ever (the foreign key).
    await db.store.applyUsage({ id: `${id}-gone`, totals: [{ ...flush.totals[0]!, accountId: 'acc_gone' }], byKey: [] });

    const later = new KyselyUsageFlushes(db.store.db, () => Date.now() + USAGE_FLUSH_ID_RETENTION_MS + 60_000);
    expect(await later.prune()).toBeGreaterThanOrEqual(2);
    const left = await db.store.db.selectFrom('usage_flushes').select('id').where('id', 'like', `${id}%`).execute();
    expect(left).toEqual([]);
  });
});

describe('usage buffer flushes', () => {
  it('a refused flush is sent again unchanged (same id, same counts), before the counts added since', async () => {
    const store = new FakeUsageStore();
    const sent: UsageFlush[] = [];
    let ids = 0;
    const buffer = new UsageBuffer(
      {
        getUsage: (...args) => store.getUsage(...args),
        applyUsage: (flush) => (sent.push(structuredClone(flush)), store.applyUsage(flush)),
      },
      undefined,
      { newFlushId: () => `f${++ids}` },
    );
    buffer.add('acc', '2030-01-01', 'production', 1, { credential: 'key_a', generation: 'v2' });
    buffer.add('acc', '2030-01-01', 'production', 2, { credential: 'key_a', generation: 'v2' });
    store.failWrites = true;
    await expect(buffer.flush()).rejects.toThrow('store is down');
    expect(store.rows.get('acc|2030-01-01|production')).toBeUndefined();
    store.failWrites = false;
    buffer.add('acc', '2030-01-01', 'production', 1, { credential: 'key_a', generation: 'v2' });
    expect(buffer.unflushed('acc', '2030-01-01', 'production')).toBe(4);
    await buffer.flush();
    const entry = (count: number) => ({
      accountId: 'acc',
      day: '2030-01-01',
      scope: 'production',
      credential: 'key_a',
      generation: 'v2',
      count,
    });
    const total = (count: number) => ({ accountId: 'acc', day: '2030-01-01', scope: 'production', count });
    expect(sent).toEqual([
      { id: 'f1', totals: [total(3)], byKey: [entry(3)] },
      { id: 'f1', totals: [total(3)], byKey: [entry(3)] },
      { id: 'f2', totals: [total(1)], byKey: [entry(1)] },
    ]);
    expect(store.rows.get('acc|2030-01-01|production')).toBe(4);
    expect(store.byKey).toEqual([entry(3), entry(1)]);
    expect(buffer.unflushed('acc', '2030-01-01', 'production')).toBe(0);
  });

  it('drops a flush the store refuses as invalid rather than holding back every later count', async () => {
    const store = new FakeUsageStore();
    let refuse = true;
    const buffer = new UsageBuffer({
      getUsage: (...args) => store.getUsage(...args),
      applyUsage: (flush) => (refuse ? Promise.reject(new RangeError("day: must be 'YYYY-MM-DD'")) : store.applyUsage(flush)),
    });
    buffer.add('acc', '2030-1-1', 'production', 2);
    await expect(buffer.flush()).rejects.toThrow(RangeError);
    refuse = false;
    buffer.add('acc', '2030-01-02', 'production', 5);
    await buffer.flush();
    expect([...store.rows]).toEqual([['acc|2030-01-02|production', 5]]);
  });
});
