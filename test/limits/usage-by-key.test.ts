/**
 * The per-credential usage breakdown: accepted requests that name their credential reach
 * usage_key_daily per (credential, generation) in the same flush as the account total, on SQLite
 * and PostgreSQL; refused requests count nowhere; a refused write stays pending for the next flush.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../../shared/limits/limiter.js';
import { parsePlanCatalog } from '../../shared/limits/plans.js';
import { utcDayOf } from '../../shared/limits/rules.js';
import { UsageBuffer } from '../../shared/limits/usage-buffer.js';
import type { KeyUsageEntry } from '../../shared/store/types.js';
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
});

describe('usage buffer breakdown', () => {
  it('keeps refused per-key writes pending and writes them on the next flush', async () => {
    const totals = new FakeUsageStore();
    const written: KeyUsageEntry[] = [];
    let fail = true;
    const keyUsage = {
      add: (e: KeyUsageEntry) => (fail ? Promise.reject(new Error('down')) : (written.push(e), Promise.resolve())),
    };
    const buffer = new UsageBuffer(Object.assign(totals, { keyUsage }));
    buffer.add('acc', '2030-01-01', 'production', 1, { credential: 'key_a', generation: 'v2' });
    buffer.add('acc', '2030-01-01', 'production', 2, { credential: 'key_a', generation: 'v2' });
    await expect(buffer.flush()).rejects.toThrow('down');
    expect(totals.rows.get('acc|2030-01-01|production')).toBe(3);
    fail = false;
    buffer.add('acc', '2030-01-01', 'production', 1, { credential: 'key_a', generation: 'v2' });
    await buffer.flush();
    expect(written).toEqual([
      { accountId: 'acc', day: '2030-01-01', scope: 'production', credential: 'key_a', generation: 'v2', count: 4 },
    ]);
    expect(totals.rows.get('acc|2030-01-01|production')).toBe(4);
  });

  it('ignores the breakdown when the store has no keyUsage part', async () => {
    const totals = new FakeUsageStore();
    const buffer = new UsageBuffer(totals);
    buffer.add('acc', '2030-01-01', 'production', 2, { credential: 'key_a', generation: 'v2' });
    await buffer.flush();
    expect(totals.rows.get('acc|2030-01-01|production')).toBe(2);
    expect(totals.addCalls).toBe(1);
  });
});
