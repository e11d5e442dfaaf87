/** Key operations: the role decides by key type, secrets appear once, IP lists need Pro, rolling keeps both keys for the grace. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyOp, listKeysOp, revokeKeyOp, rollKeyOp, updateKeyOp } from '../../api/management/operations/keys.js';
import { ApiKeyView, CreatedKeyResponse, CreateKeyRequest, KeyListResponse, RolledKeyResponse } from '../../api/management/schemas/keys.js';
import { authenticateApiKey, clearApiKeyCache } from '../../shared/keys/api-keys.js';
import { hashApiKey } from '../../shared/keys/format.js';
import { ENGINES } from '../store/engines.js';
import { check, createFixture, type Fixture, refusal } from './fixture.js';

const create = (input: Partial<CreateKeyRequest> & Pick<CreateKeyRequest, 'type'>) =>
  CreateKeyRequest.parse({ description: 'test key', ...input });

describe.each(ENGINES)('key operations on %s', (engine) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await createFixture(engine);
  });
  afterAll(() => f?.close());

  it('creates a key, returns its secret once, and stores only its hash', async () => {
    const admin = await f.member('admin');
    const created = check(CreatedKeyResponse, await createKeyOp(f.ctx, admin, create({ type: 'production', description: ' CI server ' })));
    expect(created.secret).toMatch(/^s224_[0-9A-Za-z]{38}$/);
    expect(created.key).toMatchObject({
      type: 'production',
      description: 'CI server',
      status: 'active',
      prefix: created.secret.slice(0, 12),
    });
    const listed = check(KeyListResponse, await listKeysOp(f.ctx, admin));
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const row = await f.store.db.selectFrom('api_keys').selectAll().where('id', '=', created.key.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashApiKey(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(12));
    expect((await authenticateApiKey(f.store, created.secret)).accountId).toBe(admin.account.id);
  });

  it.each([
    ['viewer', 'development', false],
    ['viewer', 'client', false],
    ['developer', 'development', true],
    ['developer', 'client', true],
    ['developer', 'production', false],
    ['developer', 'read_only', false],
    ['admin', 'production', true],
    ['admin', 'read_only', true],
    ['owner', 'production', true],
  ] as const)('a %s creating a %s key: allowed %s', async (role, type, allowed) => {
    const actor = await f.member(role);
    const input = create({ type, ...(type === 'client' ? { allowedDomains: ['app.example.com'] } : {}) });
    if (allowed) expect((await createKeyOp(f.ctx, actor, input)).key.type).toBe(type);
    else expect(await refusal(createKeyOp(f.ctx, actor, input))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('accepts IP allow-lists on Pro and Enterprise, refuses them on Free and Basic, canonicalises entries', async () => {
    const pro = await f.member('admin', 'pro');
    const made = await createKeyOp(f.ctx, pro, create({ type: 'production', allowedIps: ['::ffff:192.0.2.9', '10.9.8.7/8'] }));
    expect(made.key.allowedIps).toEqual(['192.0.2.9', '10.0.0.0/8']);
    for (const plan of ['free', 'basic'] as const) {
      const actor = await f.member('admin', plan);
      expect(await refusal(createKeyOp(f.ctx, actor, create({ type: 'production', allowedIps: ['192.0.2.1'] })))).toMatchObject({
        code: 'FORBIDDEN',
        message: 'IP allow-listing is available on the Pro and Enterprise plans',
      });
      expect((await createKeyOp(f.ctx, actor, create({ type: 'production' }))).key.allowedIps).toEqual([]);
    }
    expect(await refusal(createKeyOp(f.ctx, pro, create({ type: 'production', allowedIps: ['300.1.1.1'] })))).toMatchObject({
      code: 'INVALID_INPUT',
      details: 'field: allowedIps[0]',
    });
  });

  it('edits description, domains and IPs; refuses domains on non-client keys and changes to revoked keys', async () => {
    const admin = await f.member('admin', 'enterprise');
    const client = await createKeyOp(f.ctx, admin, create({ type: 'client', allowedDomains: ['a.example.com'] }));
    const edited = check(
      ApiKeyView,
      await updateKeyOp(f.ctx, admin, client.key.id, {
        description: 'Web app',
        allowedDomains: ['B.example.com', '*.example.org'],
        allowedIps: ['2001:db8::/48'],
      }),
    );
    expect(edited).toMatchObject({
      description: 'Web app',
      allowedDomains: ['b.example.com', '*.example.org'],
      allowedIps: ['2001:db8::/48'],
    });
    const principal = await authenticateApiKey(f.store, client.secret);
    expect(principal.allowedDomains).toEqual(['b.example.com', '*.example.org']);
    expect(await refusal(updateKeyOp(f.ctx, admin, client.key.id, { allowedDomains: [] }))).toMatchObject({ code: 'INVALID_INPUT' });
    const prod = await createKeyOp(f.ctx, admin, create({ type: 'production' }));
    expect(await refusal(updateKeyOp(f.ctx, admin, prod.key.id, { allowedDomains: ['x.example'] }))).toMatchObject({
      details: 'field: allowedDomains',
    });
    await revokeKeyOp(f.ctx, admin, prod.key.id);
    expect(await refusal(updateKeyOp(f.ctx, admin, prod.key.id, { description: 'again' }))).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it("revokes for good (the key answers 401 at once), and treats another account's key as unknown", async () => {
    const admin = await f.member('admin');
    const made = await createKeyOp(f.ctx, admin, create({ type: 'development' }));
    await authenticateApiKey(f.store, made.secret); // cached now
    const revoked = check(ApiKeyView, await revokeKeyOp(f.ctx, admin, made.key.id));
    expect(revoked.status).toBe('revoked');
    expect(await refusal(authenticateApiKey(f.store, made.secret))).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await revokeKeyOp(f.ctx, admin, made.key.id)).revokedAt).toBe(revoked.revokedAt);

    const stranger = await f.member('owner');
    expect(await refusal(revokeKeyOp(f.ctx, stranger, made.key.id))).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const dev = await f.member('developer', 'pro', admin.account.id);
    const prod = await createKeyOp(f.ctx, admin, create({ type: 'production' }));
    expect(await refusal(revokeKeyOp(f.ctx, dev, prod.key.id))).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('rolls a key: both work during the grace period, then only the new one; a key rolls once', async () => {
    const admin = await f.member('admin');
    const old = await createKeyOp(f.ctx, admin, create({ type: 'production', allowedIps: ['192.0.2.0/24'] }));
    await authenticateApiKey(f.store, old.secret); // cached in this process
    const rolled = check(RolledKeyResponse, await rollKeyOp(f.ctx, admin, old.key.id, { gracePeriodHours: 2, expiresAt: null }));
    expect(rolled.secret).not.toBe(old.secret);
    expect(rolled.key).toMatchObject({ type: 'production', allowedIps: ['192.0.2.0/24'], status: 'active' });
    expect(rolled.previous).toMatchObject({
      status: 'rolling',
      replacedBy: rolled.key.id,
      expiresAt: new Date(f.clock.now.getTime() + 2 * 3_600_000).toISOString(),
    });

    const during = new Date(f.clock.now.getTime() + 3_600_000);
    expect((await authenticateApiKey(f.store, old.secret, during)).credentialId).toBe(old.key.id);
    expect((await authenticateApiKey(f.store, rolled.secret, during)).credentialId).toBe(rolled.key.id);
    const after = new Date(f.clock.now.getTime() + 2 * 3_600_000);
    clearApiKeyCache(f.store);
    expect(await refusal(authenticateApiKey(f.store, old.secret, after))).toMatchObject({ code: 'EXPIRED_KEY' });
    expect((await authenticateApiKey(f.store, rolled.secret, after)).credentialId).toBe(rolled.key.id);

    expect(await refusal(rollKeyOp(f.ctx, admin, old.key.id, { expiresAt: null }))).toMatchObject({ code: 'INVALID_INPUT' });
    const statuses = Object.fromEntries((await listKeysOp(f.ctx, admin)).keys.map((k) => [k.id, k.status]));
    expect(statuses).toEqual({ [rolled.key.id]: 'active', [old.key.id]: 'rolling' });
  });

  it('rolls with no grace: the old key stops at once, even from the cache', async () => {
    const admin = await f.member('admin');
    const old = await createKeyOp(f.ctx, admin, create({ type: 'read_only' }));
    await authenticateApiKey(f.store, old.secret, f.clock.now);
    await rollKeyOp(f.ctx, admin, old.key.id, { gracePeriodHours: 0, expiresAt: null });
    expect(await refusal(authenticateApiKey(f.store, old.secret, f.clock.now))).toMatchObject({ code: 'EXPIRED_KEY' });
  });
});
