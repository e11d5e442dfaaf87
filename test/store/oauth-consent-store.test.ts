/**
 * The dashboard's OAuth stores (applications, people's consents) on SQLite and PostgreSQL: ending a
 * consent, in any of its ways, revokes every code and token issued under it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ENGINES, storeOnEngine } from './engines.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(ENGINES)('OAuth application and consent stores on %s', (engine) => {
  const db = storeOnEngine(engine);

  async function person(accountId: string, role: 'owner' | 'admin' | 'viewer' = 'admin') {
    const user = (await db.store.users.createUser({ email: `${randomUUID()}@example.com`, name: '' }))!;
    await db.store.users.addMembership(accountId, user.id, role);
    return user;
  }

  /** A code, an access and a refresh token issued under `consentId`, as the OAuth server will write them. */
  async function issueUnder(consentId: string, accountId: string, clientId: string) {
    const id = randomUUID();
    const now = Date.now();
    const base = {
      client_id: clientId,
      account_id: accountId,
      grant_id: `grt_${id}`,
      scope: 'hash:create',
      created_at: now,
      expires_at: now + 3_600_000,
    };
    await db.store.db
      .insertInto('oauth_access_tokens')
      .values({ ...base, token_hash: sha(`at${id}`), revoked_at: null })
      .execute();
    await db.store.db
      .insertInto('oauth_refresh_tokens')
      .values({ ...base, token_hash: sha(`rt${id}`), revoked_at: null })
      .execute();
    await db.store.db
      .insertInto('oauth_codes')
      .values({
        ...base,
        code_hash: sha(`c${id}`),
        redirect_uri: 'https://app.example/cb',
        code_challenge: 'x',
        code_challenge_method: 'S256',
        consumed_at: null,
      })
      .execute();
    for (const table of ['oauth_access_tokens', 'oauth_refresh_tokens', 'oauth_codes'] as const) {
      await sql`update ${sql.table(table)} set consent_id = ${consentId} where grant_id = ${base.grant_id}`.execute(db.store.db);
    }
    return async () => ({
      access: (
        await db.store.db
          .selectFrom('oauth_access_tokens')
          .select('revoked_at')
          .where('token_hash', '=', sha(`at${id}`))
          .executeTakeFirstOrThrow()
      ).revoked_at,
      refresh: (
        await db.store.db
          .selectFrom('oauth_refresh_tokens')
          .select('revoked_at')
          .where('token_hash', '=', sha(`rt${id}`))
          .executeTakeFirstOrThrow()
      ).revoked_at,
      code: (
        await db.store.db
          .selectFrom('oauth_codes')
          .select('consumed_at')
          .where('code_hash', '=', sha(`c${id}`))
          .executeTakeFirstOrThrow()
      ).consumed_at,
    });
  }

  it('registers, lists, edits, rotates and deletes OAuth applications', async () => {
    const acc = await db.store.createAccount({ name: 'Apps', plan: 'enterprise' });
    const app = await db.store.oauthApps.create({
      id: `s224c_${randomUUID()}`,
      accountId: acc.id,
      name: 'CI',
      redirectUris: ['https://ci.example/cb'],
      secretHash: sha('s1'),
    });
    const pub = await db.store.oauthApps.create({
      id: `s224c_${randomUUID()}`,
      accountId: acc.id,
      name: 'CLI',
      redirectUris: ['http://127.0.0.1/cb'],
      secretHash: null,
    });
    expect(app).toMatchObject({ name: 'CI', redirectUris: ['https://ci.example/cb'], isPublic: false, accountId: acc.id });
    expect(pub.isPublic).toBe(true);
    expect((await db.store.oauthApps.list(acc.id)).map((a) => a.id).sort()).toEqual([app.id, pub.id].sort());

    const edited = await db.store.oauthApps.update(app.id, {
      name: 'CI 2',
      redirectUris: ['https://ci.example/a', 'https://ci.example/b'],
    });
    expect(edited).toMatchObject({ name: 'CI 2', redirectUris: ['https://ci.example/a', 'https://ci.example/b'] });
    expect(await db.store.oauthApps.update('s224c_missing', { name: 'x' })).toBeUndefined();

    expect(await db.store.oauthApps.setSecretHash(app.id, sha('s2'))).toBe(true);
    const row = await db.store.db.selectFrom('oauth_clients').select('secret_hash').where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(sha('s2'));
    expect(await db.store.oauthApps.setSecretHash(pub.id, sha('s3'))).toBe(false);

    expect(await db.store.oauthApps.delete(app.id)).toBe(true);
    expect(await db.store.oauthApps.delete(app.id)).toBe(false);
    expect(await db.store.oauthApps.get(app.id)).toBeUndefined();
  });

  it('records consents, widens their scope, lists and touches them; revoking one revokes its codes and tokens', async () => {
    const acc = await db.store.createAccount({ name: 'Grants', plan: 'enterprise' });
    const user = await person(acc.id);
    const app = await db.store.oauthApps.create({
      id: `s224c_${randomUUID()}`,
      accountId: acc.id,
      name: 'Tool',
      redirectUris: ['https://t.example/cb'],
      secretHash: null,
    });
    const now = new Date(Date.UTC(2030, 0, 1));
    const g = await db.store.oauthGrants.upsert({
      accountId: acc.id,
      clientId: app.id,
      userId: user.id,
      scope: ['hash:verify', 'hash:create'],
      now,
    });
    expect(g).toMatchObject({
      clientName: 'Tool',
      userEmail: user.email,
      scope: ['hash:create', 'hash:verify'],
      createdAt: now,
      lastUsedAt: null,
    });
    const wider = await Promise.all([
      db.store.oauthGrants.upsert({ accountId: acc.id, clientId: app.id, userId: user.id, scope: ['usage:read'], now }),
      db.store.oauthGrants.upsert({ accountId: acc.id, clientId: app.id, userId: user.id, scope: ['jobs:read'], now }),
    ]);
    expect(wider[0].id).toBe(g.id);
    expect((await db.store.oauthGrants.get(g.id))?.scope).toEqual(['hash:create', 'hash:verify', 'jobs:read', 'usage:read']);

    await db.store.oauthGrants.touch(g.id, new Date(now.getTime() + 5000));
    await db.store.oauthGrants.touch(g.id, now);
    expect((await db.store.oauthGrants.find(acc.id, app.id, user.id))?.lastUsedAt).toEqual(new Date(now.getTime() + 5000));
    expect((await db.store.oauthGrants.list(acc.id)).map((x) => x.id)).toEqual([g.id]);

    const state = await issueUnder(g.id, acc.id, app.id);
    expect(await state()).toEqual({ access: null, refresh: null, code: null });
    expect(await db.store.oauthGrants.revoke(g.id)).toBe(true);
    const after = await state();
    expect(after.access).toBeGreaterThan(0);
    expect(after.refresh).toBeGreaterThan(0);
    expect(after.code).toBeGreaterThan(0);
    expect(await db.store.oauthGrants.revoke(g.id)).toBe(false);
    expect(await db.store.oauthGrants.list(acc.id)).toEqual([]);
  });

  it('ends a person’s consents when they are removed or demoted with endConsents, and only theirs', async () => {
    const acc = await db.store.createAccount({ name: 'Team', plan: 'enterprise' });
    const [ada, bob] = [await person(acc.id), await person(acc.id)];
    const app = await db.store.oauthApps.create({
      id: `s224c_${randomUUID()}`,
      accountId: acc.id,
      name: 'A',
      redirectUris: ['https://a.example/cb'],
      secretHash: null,
    });
    const now = new Date();
    const ga = await db.store.oauthGrants.upsert({ accountId: acc.id, clientId: app.id, userId: ada.id, scope: ['hash:create'], now });
    const gb = await db.store.oauthGrants.upsert({ accountId: acc.id, clientId: app.id, userId: bob.id, scope: ['hash:create'], now });
    const adaTokens = await issueUnder(ga.id, acc.id, app.id);
    const bobTokens = await issueUnder(gb.id, acc.id, app.id);

    expect(await db.store.users.setRole(acc.id, bob.id, 'admin', { endConsents: false })).toBe(true);
    expect((await bobTokens()).access).toBeNull();
    expect(await db.store.users.removeMembership(acc.id, ada.id)).toBe(true);
    expect((await adaTokens()).access).toBeGreaterThan(0);
    expect((await bobTokens()).access).toBeNull();
    expect((await db.store.oauthGrants.list(acc.id)).map((g) => g.id)).toEqual([gb.id]);

    expect(await db.store.users.setRole(acc.id, bob.id, 'viewer', { endConsents: true })).toBe(true);
    expect((await bobTokens()).refresh).toBeGreaterThan(0);
    expect(await db.store.oauthGrants.list(acc.id)).toEqual([]);

    const carl = await person(acc.id);
    const gc = await db.store.oauthGrants.upsert({ accountId: acc.id, clientId: app.id, userId: carl.id, scope: ['hash:create'], now });
    const carlTokens = await issueUnder(gc.id, acc.id, app.id);
    expect(await db.store.users.deleteUser(carl.id)).toBe(true);
    expect((await carlTokens()).access).toBeGreaterThan(0);
    expect(await db.store.oauthGrants.get(gc.id)).toBeUndefined();
  });
});
