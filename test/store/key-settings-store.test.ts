/** The dashboard's key and account stores (JWT keys, key settings and rolling, per-key usage) on SQLite and PostgreSQL. */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewAccountJwtKey } from '../../shared/store/dashboard-types.js';
import { ENGINES, storeOnEngine } from './engines.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(ENGINES)('key and account settings stores on %s', (engine) => {
  const db = storeOnEngine(engine);

  it('keeps JWT public keys per account under distinct kids; add refuses a taken kid; replaceAll rotates', async () => {
    const acc = await db.store.createAccount({ name: 'Jwt', plan: 'enterprise' });
    const other = await db.store.createAccount({ name: 'Jwt2', plan: 'enterprise' });
    const key = (kid: string): NewAccountJwtKey => ({
      kid,
      alg: 'EdDSA',
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid.padEnd(43, 'A') },
      source: 'jwk',
    });
    const added = await db.store.jwtKeys.add(acc.id, [key('k1'), key('k2')]);
    expect(added?.map((k) => k.kid)).toEqual(['k1', 'k2']);
    expect(await db.store.jwtKeys.add(other.id, [key('k1')])).toHaveLength(1);
    expect(await db.store.jwtKeys.add(acc.id, [key('k3'), key('k1')])).toBeUndefined();
    expect((await db.store.jwtKeys.list(acc.id)).map((k) => k.kid)).toEqual(['k1', 'k2']);
    await expect(db.store.jwtKeys.add(acc.id, [key('k9'), key('k9')])).rejects.toThrow(RangeError);
    await expect(db.store.jwtKeys.add(acc.id, [{ ...key('k8'), alg: 'HS256' as 'EdDSA' }])).rejects.toThrow(RangeError);

    const found = await db.store.jwtKeys.find(acc.id, 'k2');
    expect(found).toMatchObject({ kid: 'k2', alg: 'EdDSA', publicJwk: key('k2').publicJwk, source: 'jwk', lastUsedAt: null });
    await db.store.jwtKeys.touch(found!.id, new Date(Date.UTC(2030, 0, 1)));
    expect((await db.store.jwtKeys.find(acc.id, 'k2'))?.lastUsedAt).toEqual(new Date(Date.UTC(2030, 0, 1)));

    const rotated = await db.store.jwtKeys.replaceAll(acc.id, [key('k4')]);
    expect(rotated.map((k) => k.kid)).toEqual(['k4']);
    expect(await db.store.jwtKeys.find(acc.id, 'k1')).toBeUndefined();
    expect(await db.store.jwtKeys.delete(acc.id, 'k4')).toBe(true);
    expect(await db.store.jwtKeys.delete(acc.id, 'k4')).toBe(false);
    expect((await db.store.jwtKeys.list(other.id)).map((k) => k.kid)).toEqual(['k1']);
  });

  it('edits key settings, stores IP allow-lists on keys and accounts, and finds them with the key', async () => {
    const acc = await db.store.createAccount({ name: 'Ips', plan: 'pro' });
    expect(acc.allowedIps).toEqual([]);
    const k = await db.store.insertKey({
      id: `key_${randomUUID()}`,
      accountId: acc.id,
      prefix: 's224_abc',
      keyHash: sha(randomUUID()),
      type: 'client',
      description: 'd',
      allowedDomains: ['a.example'],
      allowedIps: ['10.0.0.0/8'],
    });
    expect(k).toMatchObject({ allowedIps: ['10.0.0.0/8'], replacedBy: null });
    const edited = await db.store.keySettings.updateKey(k.id, {
      description: 'new',
      allowedDomains: ['b.example'],
      allowedIps: ['2001:db8::/32', '192.0.2.1'],
    });
    expect(edited).toMatchObject({ description: 'new', allowedDomains: ['b.example'], allowedIps: ['2001:db8::/32', '192.0.2.1'] });
    expect(await db.store.keySettings.updateKey('key_missing', { description: 'x' })).toBeUndefined();

    expect(await db.store.keySettings.setAccountAllowedIps(acc.id, ['198.51.100.0/24'])).toBe(true);
    expect(await db.store.keySettings.setAccountAllowedIps('acc_missing', [])).toBe(false);
    expect((await db.store.getAccount(acc.id))?.allowedIps).toEqual(['198.51.100.0/24']);
    const hash = (await db.store.db.selectFrom('api_keys').select('key_hash').where('id', '=', k.id).executeTakeFirstOrThrow()).key_hash;
    const found = await db.store.findKeyByHash(hash);
    expect(found?.account.allowedIps).toEqual(['198.51.100.0/24']);
    expect(found?.key.allowedIps).toEqual(['2001:db8::/32', '192.0.2.1']);
  });

  it('rolls a key once: the replacement is inserted, the old one ends at the grace period or its earlier expiry', async () => {
    const acc = await db.store.createAccount({ name: 'Roll', plan: 'basic' });
    const now = new Date();
    const grace = new Date(now.getTime() + 24 * 3_600_000);
    const insert = (extra: { expiresAt?: Date | null; ips?: string[] } = {}) =>
      db.store.insertKey({
        id: `key_${randomUUID()}`,
        accountId: acc.id,
        prefix: 's224_abc',
        keyHash: sha(randomUUID()),
        type: 'production',
        description: 'p',
        expiresAt: extra.expiresAt ?? null,
        allowedIps: extra.ips ?? [],
      });
    const replacement = (old: { type: 'production'; description: string; allowedIps: string[] }) => ({
      id: `key_${randomUUID()}`,
      accountId: acc.id,
      prefix: 's224_new',
      keyHash: sha(randomUUID()),
      type: old.type,
      description: old.description,
      allowedIps: old.allowedIps,
    });

    const old = await insert({ ips: ['192.0.2.0/24'] });
    const rolls = await Promise.all(
      [1, 2].map(() =>
        db.store.keySettings.rollKey(old.id, replacement({ type: 'production', description: 'p', allowedIps: old.allowedIps }), grace, now),
      ),
    );
    const won = rolls.filter((r) => r !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]!.old).toMatchObject({ id: old.id, replacedBy: won[0]!.replacement.id, expiresAt: grace });
    expect(won[0]!.replacement).toMatchObject({ allowedIps: ['192.0.2.0/24'], replacedBy: null, expiresAt: null });
    expect((await db.store.listKeys(acc.id)).length).toBe(2);

    const soon = new Date(now.getTime() + 60_000);
    const early = await insert({ expiresAt: soon });
    const r = await db.store.keySettings.rollKey(
      early.id,
      replacement({ type: 'production', description: 'p', allowedIps: [] }),
      grace,
      now,
    );
    expect(r?.old.expiresAt).toEqual(soon);

    const revoked = await insert();
    await db.store.revokeKey(revoked.id);
    expect(
      await db.store.keySettings.rollKey(revoked.id, replacement({ type: 'production', description: 'p', allowedIps: [] }), grace, now),
    ).toBeUndefined();
    const expired = await insert({ expiresAt: new Date(now.getTime() + 10) });
    expect(
      await db.store.keySettings.rollKey(
        expired.id,
        replacement({ type: 'production', description: 'p', allowedIps: [] }),
        grace,
        new Date(now.getTime() + 10),
      ),
    ).toBeUndefined();
    expect((await db.store.listKeys(acc.id)).length).toBe(6);
  });

  it('adds per-credential, per-generation usage atomically and lists it with the day totals', async () => {
    const acc = await db.store.createAccount({ name: 'Usage', plan: 'free' });
    const entry = {
      accountId: acc.id,
      day: '2030-01-02',
      scope: 'production' as const,
      credential: 'key_a',
      generation: 'v2' as const,
      count: 1,
    };
    await Promise.all(Array.from({ length: 10 }, () => db.store.keyUsage.add(entry)));
    await db.store.keyUsage.add({ ...entry, generation: 'v1b', count: 3 });
    await db.store.keyUsage.add({ ...entry, credential: 'oauth:s224c_x', count: 2 });
    await db.store.keyUsage.add({ ...entry, day: '2030-01-05', count: 4 });
    await db.store.keyUsage.add({ ...entry, scope: 'sandbox', count: 7 });
    await db.store.keyUsage.add({ ...entry, count: 0 });
    await db.store.addUsage(acc.id, '2030-01-02', 'production', 15);
    await db.store.addUsage(acc.id, '2030-01-05', 'production', 4);

    const rows = await db.store.keyUsage.listByCredential(acc.id, 'production', '2030-01-01', '2030-01-04');
    expect(rows.map((r) => [r.day, r.credential, r.generation, r.count])).toEqual([
      ['2030-01-02', 'key_a', 'v1b', 3],
      ['2030-01-02', 'key_a', 'v2', 10],
      ['2030-01-02', 'oauth:s224c_x', 'v2', 2],
    ]);
    expect(await db.store.keyUsage.listDaily(acc.id, 'production', '2030-01-01', '2030-01-31')).toEqual([
      { day: '2030-01-02', count: 15 },
      { day: '2030-01-05', count: 4 },
    ]);
    expect((await db.store.keyUsage.listByCredential(acc.id, 'sandbox', '2030-01-02', '2030-01-02')).map((r) => r.count)).toEqual([7]);
    await expect(db.store.keyUsage.add({ ...entry, generation: 'v3' as 'v2' })).rejects.toThrow(RangeError);
    await expect(db.store.keyUsage.add({ ...entry, day: '2030-1-2' })).rejects.toThrow(RangeError);
    await expect(db.store.keyUsage.add({ ...entry, count: -1 })).rejects.toThrow(RangeError);
    await expect(db.store.keyUsage.listDaily(acc.id, 'test' as 'sandbox', '2030-01-01', '2030-01-02')).rejects.toThrow(RangeError);
  });
});
