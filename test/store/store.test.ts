/** The AccountStore contract, run unchanged against SQLite and PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../shared/store/kysely-store.js';
import { ENGINES, storeOnEngine } from './engines.js';
import { waitFor } from '../helpers/wait.js';

describe.each(ENGINES)('KyselyAccountStore on %s', (engine) => {
  const db = storeOnEngine(engine);

  function newKey(accountId: string, extra: { expiresAt?: Date | null; type?: 'production' | 'client' } = {}) {
    const id = `key_${randomUUID()}`;
    return db.store.insertKey({
      id,
      accountId,
      prefix: 's224_abcdefg',
      keyHash: randomUUID().replaceAll('-', '').repeat(2),
      type: extra.type ?? 'production',
      description: 'test key',
      allowedDomains: extra.type === 'client' ? ['app.example.com', '*.example.org'] : [],
      expiresAt: extra.expiresAt ?? null,
    });
  }

  function hashOf(id: string) {
    return db.store.db.selectFrom('api_keys').select('key_hash').where('id', '=', id).executeTakeFirstOrThrow();
  }

  it('creates, gets and lists accounts; changes plans', async () => {
    const before = Date.now();
    const a = await db.store.createAccount({ name: 'Acme', plan: 'free' });
    const b = await db.store.createAccount({ name: 'Beta', plan: 'pro' });
    expect(a.id).toMatch(/^acc_/);
    expect(a.createdAt).toBeInstanceOf(Date);
    expect(a.createdAt.getTime()).toBeGreaterThanOrEqual(before);

    expect(await db.store.getAccount(a.id)).toEqual(a);
    expect(await db.store.getAccount('acc_missing')).toBeUndefined();
    const ids = (await db.store.listAccounts()).map((x) => x.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));

    expect(await db.store.setPlan(a.id, 'enterprise')).toBe(true);
    expect((await db.store.getAccount(a.id))?.plan).toBe('enterprise');
    expect(await db.store.setPlan('acc_missing', 'pro')).toBe(false);
    await expect(db.store.setPlan(a.id, 'gold' as 'pro')).rejects.toThrow(RangeError);
    await expect(db.store.createAccount({ name: 'x', plan: 'gold' as 'pro' })).rejects.toThrow(/plan/);
  });

  it('stores keys with exact timestamps and domain lists, finds them by hash, lists per account', async () => {
    const acc = await db.store.createAccount({ name: 'Keys', plan: 'basic' });
    const other = await db.store.createAccount({ name: 'Other', plan: 'basic' });
    const expiresAt = new Date(Date.UTC(2099, 0, 2, 3, 4, 5, 678));
    const k = await newKey(acc.id, { type: 'client', expiresAt });
    const k2 = await newKey(other.id);

    const got = await db.store.getKey(k.id);
    expect(got).toEqual(k);
    expect(got?.expiresAt?.getTime()).toBe(expiresAt.getTime());
    expect(got?.allowedDomains).toEqual(['app.example.com', '*.example.org']);
    expect(got?.revokedAt).toBeNull();
    expect(got?.lastUsedAt).toBeNull();
    expect(typeof got?.createdAt.getTime()).toBe('number');

    const row = await hashOf(k.id);
    const found = await db.store.findKeyByHash(row.key_hash);
    expect(found?.key).toEqual(k);
    expect(found?.keyHash).toBe(row.key_hash);
    expect(found?.account).toEqual(acc);
    expect(await db.store.findKeyByHash('0'.repeat(64))).toBeUndefined();

    expect((await db.store.listKeys(acc.id)).map((x) => x.id)).toEqual([k.id]);
    expect((await db.store.listKeys()).map((x) => x.id)).toEqual(expect.arrayContaining([k.id, k2.id]));
    expect(await db.store.getKey('key_missing')).toBeUndefined();
  });

  it('refuses a key for an unknown account and a duplicate hash', async () => {
    await expect(newKey('acc_missing')).rejects.toThrow();
    const acc = await db.store.createAccount({ name: 'Dup', plan: 'free' });
    const k = await newKey(acc.id);
    const { key_hash } = await hashOf(k.id);
    const dup = { id: `key_${randomUUID()}`, accountId: acc.id, prefix: 'p', keyHash: key_hash, description: 'd' };
    await expect(db.store.insertKey({ ...dup, type: 'production' })).rejects.toThrow();
  });

  it('revokes once: the first timestamp stays and the key cannot be restored', async () => {
    const acc = await db.store.createAccount({ name: 'Rev', plan: 'free' });
    const k = await newKey(acc.id);
    expect(await db.store.revokeKey(k.id)).toBe(true);
    const first = (await db.store.getKey(k.id))?.revokedAt;
    expect(first).toBeInstanceOf(Date);
    // A second revocation now would carry a later timestamp than the first.
    await waitFor(() => Date.now() > first!.getTime() + 1, { what: 'the clock to pass the first revocation' });
    expect(await db.store.revokeKey(k.id)).toBe(false);
    expect((await db.store.getKey(k.id))?.revokedAt).toEqual(first);
    expect(await db.store.revokeKey('key_missing')).toBe(false);
    // No store operation clears revoked_at; inserting the same id again is refused.
    const again = { id: k.id, accountId: acc.id, prefix: 'p', keyHash: 'f'.repeat(64), description: 'd' };
    await expect(db.store.insertKey({ ...again, type: 'production' })).rejects.toThrow();
  });

  it('touchKey records last use and never moves it backwards', async () => {
    const acc = await db.store.createAccount({ name: 'Touch', plan: 'free' });
    const k = await newKey(acc.id);
    const t1 = new Date('2030-01-01T00:00:00.123Z');
    await db.store.touchKey(k.id, t1);
    expect((await db.store.getKey(k.id))?.lastUsedAt).toEqual(t1);
    await db.store.touchKey(k.id, new Date('2029-01-01T00:00:00Z'));
    expect((await db.store.getKey(k.id))?.lastUsedAt).toEqual(t1);
    const t2 = new Date('2030-01-01T00:01:00Z');
    await db.store.touchKey(k.id, t2);
    expect((await db.store.getKey(k.id))?.lastUsedAt).toEqual(t2);
  });

  it('counts usage per account, day and scope', async () => {
    const acc = await db.store.createAccount({ name: 'Usage', plan: 'free' });
    expect(await db.store.getUsage(acc.id, '2030-01-01', 'production')).toBe(0);
    await db.store.addUsage(acc.id, '2030-01-01', 'production', 3);
    await db.store.addUsage(acc.id, '2030-01-01', 'production', 4);
    await db.store.addUsage(acc.id, '2030-01-01', 'sandbox', 5);
    await db.store.addUsage(acc.id, '2030-01-02', 'production', 1);
    await db.store.addUsage(acc.id, '2030-01-02', 'production', 0);
    expect(await db.store.getUsage(acc.id, '2030-01-01', 'production')).toBe(7);
    expect(await db.store.getUsage(acc.id, '2030-01-01', 'sandbox')).toBe(5);
    expect(await db.store.getUsage(acc.id, '2030-01-02', 'production')).toBe(1);
    // Counters go past 2^31 (bigint) and come back as numbers.
    await db.store.addUsage(acc.id, '2030-01-03', 'production', 2 ** 31 + 5);
    expect(await db.store.getUsage(acc.id, '2030-01-03', 'production')).toBe(2 ** 31 + 5);

    await expect(db.store.addUsage(acc.id, '2030-1-1', 'production', 1)).rejects.toThrow(RangeError);
    await expect(db.store.addUsage(acc.id, '2030-01-01', 'staging' as 'sandbox', 1)).rejects.toThrow(RangeError);
    await expect(db.store.addUsage(acc.id, '2030-01-01', 'production', -1)).rejects.toThrow(RangeError);
    await expect(db.store.addUsage(acc.id, '2030-01-01', 'production', 1.5)).rejects.toThrow(RangeError);
  });

  it('200 concurrent increments on one counter count exactly 200', async () => {
    const acc = await db.store.createAccount({ name: 'Concurrent', plan: 'free' });
    await Promise.all(Array.from({ length: 200 }, () => db.store.addUsage(acc.id, '2030-02-01', 'production', 1)));
    expect(await db.store.getUsage(acc.id, '2030-02-01', 'production')).toBe(200);
  });

  it('concurrent increments from two store instances (separate connections) are not lost', async () => {
    const second = await createStore(db.testDatabase.options);
    try {
      const acc = await db.store.createAccount({ name: 'TwoNodes', plan: 'free' });
      await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? db.store : second).addUsage(acc.id, '2030-02-02', 'sandbox', 2)));
      expect(await second.getUsage(acc.id, '2030-02-02', 'sandbox')).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('ping works; close is idempotent', async () => {
    await db.store.ping();
    const extra = await createStore(db.testDatabase.options);
    const p1 = extra.close();
    expect(extra.close()).toBe(p1);
    await p1;
  });
});
