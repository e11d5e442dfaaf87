/** Members and roles, authorized applications (consents), OAuth applications and JWT keys, as operations. */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addJwtKeysOp, deleteJwtKeyOp, listJwtKeysOp, replaceJwtKeysOp } from '../../api/management/operations/jwt-keys.js';
import {
  inviteMemberOp,
  listMembersOp,
  memberResetLinkOp,
  removeMemberOp,
  updateMemberOp,
} from '../../api/management/operations/members.js';
import { listGrantsOp, revokeGrantOp } from '../../api/management/operations/grants.js';
import {
  deleteOAuthAppOp,
  listOAuthAppsOp,
  registerOAuthAppOp,
  rotateOAuthSecretOp,
  updateOAuthAppOp,
} from '../../api/management/operations/oauth-apps.js';
import { InvitedMemberResponse, InviteMemberRequest, MemberListResponse } from '../../api/management/schemas/members.js';
import { GrantListResponse, RegisteredOAuthAppResponse } from '../../api/management/schemas/oauth.js';
import { JwtKeyListResponse } from '../../api/management/schemas/jwt.js';
import { hashOAuthSecret } from '../../shared/oauth/tokens.js';
import { check, createFixture, type Fixture, refusal } from './fixture.js';

const invite = (email: string, role: InviteMemberRequest['role']) => InviteMemberRequest.parse({ email, role });
const pem = () => generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();

describe('people operations', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await createFixture();
  });
  afterAll(() => f?.close());

  it('invites: a new person gets a setup link once; a repeat is refused; a viewer cannot invite', async () => {
    const admin = await f.member('admin');
    const invited = check(InvitedMemberResponse, await inviteMemberOp(f.ctx, admin, invite('dev@example.com', 'developer')));
    expect(invited.member).toMatchObject({ email: 'dev@example.com', role: 'developer', hasPassword: false, you: false });
    expect(invited.setupLink?.url).toMatch(/^https:\/\/hash\.example\.com\/dashboard\/set-password#token=s224l_/);
    expect(await refusal(inviteMemberOp(f.ctx, admin, invite('DEV@example.com', 'viewer')))).toMatchObject({ code: 'INVALID_INPUT' });
    const viewer = await f.member('viewer', 'pro', admin.account.id);
    expect(await refusal(inviteMemberOp(f.ctx, viewer, invite('x@example.com', 'viewer')))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(inviteMemberOp(f.ctx, admin, invite('o@example.com', 'owner')))).toMatchObject({
      message: 'Only owners make or remove owners',
    });
    const members = check(MemberListResponse, await listMembersOp(f.ctx, viewer));
    expect(members.members.filter((m) => m.you).map((m) => m.userId)).toEqual([viewer.user.id]);
  });

  it('never hands out a link for a person who belongs to another account', async () => {
    const a = await f.member('owner');
    const b = await f.member('owner');
    const pending = await inviteMemberOp(f.ctx, a, invite('pending@example.com', 'viewer'));
    expect(pending.setupLink).not.toBeNull();
    const elsewhere = await inviteMemberOp(f.ctx, b, invite('pending@example.com', 'viewer'));
    expect(elsewhere.setupLink).toBeNull();
    expect(await refusal(memberResetLinkOp(f.ctx, b, pending.member.userId))).toMatchObject({ code: 'FORBIDDEN' });
    // A member of this account only: an admin gets a reset link, but not for an owner.
    const admin = await f.member('admin', 'pro', a.account.id);
    const solo = await inviteMemberOp(f.ctx, a, invite('solo@example.com', 'developer'));
    expect((await memberResetLinkOp(f.ctx, admin, solo.member.userId)).url).toContain('#token=s224l_');
    expect(await refusal(memberResetLinkOp(f.ctx, admin, a.user.id))).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('changes roles within the rules: owners only by owners, always one owner, demotion ends consents', async () => {
    const owner = await f.member('owner', 'enterprise');
    const admin = await f.member('admin', 'enterprise', owner.account.id);
    const dev = await f.member('developer', 'enterprise', owner.account.id);
    expect(await refusal(updateMemberOp(f.ctx, admin, dev.user.id, { role: 'owner' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(updateMemberOp(f.ctx, admin, owner.user.id, { role: 'viewer' }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await refusal(updateMemberOp(f.ctx, owner, owner.user.id, { role: 'admin' }))).toMatchObject({ code: 'INVALID_INPUT' });
    expect((await updateMemberOp(f.ctx, admin, dev.user.id, { role: 'admin' })).role).toBe('admin');

    const app = await registerOAuthAppOp(f.ctx, owner, { name: 'Tool', redirectUris: ['https://tool.example/cb'], public: false });
    const consent = await f.store.oauthGrants.upsert({
      accountId: owner.account.id,
      clientId: app.app.clientId,
      userId: dev.user.id,
      scope: ['hash:create'],
      now: f.clock.now,
    });
    await updateMemberOp(f.ctx, owner, dev.user.id, { role: 'admin' });
    expect(await f.store.oauthGrants.get(consent.id)).toBeDefined();
    await updateMemberOp(f.ctx, owner, dev.user.id, { role: 'developer' });
    expect(await f.store.oauthGrants.get(consent.id)).toBeUndefined();
  });

  it('removes members and lets one leave, never the last owner; removal ends their consents', async () => {
    const owner = await f.member('owner', 'enterprise');
    const admin = await f.member('admin', 'enterprise', owner.account.id);
    const viewer = await f.member('viewer', 'enterprise', owner.account.id);
    expect(await refusal(removeMemberOp(f.ctx, viewer, admin.user.id))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await removeMemberOp(f.ctx, viewer, viewer.user.id)).toEqual({ ok: true });
    expect(await refusal(removeMemberOp(f.ctx, owner, owner.user.id))).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await refusal(removeMemberOp(f.ctx, admin, owner.user.id))).toMatchObject({ code: 'FORBIDDEN' });

    const app = await registerOAuthAppOp(f.ctx, owner, { name: 'A', redirectUris: ['https://a.example/cb'], public: true });
    await f.store.oauthGrants.upsert({
      accountId: owner.account.id,
      clientId: app.app.clientId,
      userId: admin.user.id,
      scope: ['usage:read'],
      now: f.clock.now,
    });
    await removeMemberOp(f.ctx, owner, admin.user.id);
    expect((await listGrantsOp(f.ctx, owner)).grants).toEqual([]);
    expect(await refusal(removeMemberOp(f.ctx, owner, admin.user.id))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists authorized applications; a person ends their own consent, an admin anyone’s, a developer only their own', async () => {
    const owner = await f.member('owner', 'enterprise');
    const dev = await f.member('developer', 'enterprise', owner.account.id);
    const app = await registerOAuthAppOp(f.ctx, owner, { name: 'Reporter', redirectUris: ['https://r.example/cb'], public: false });
    const mine = await f.store.oauthGrants.upsert({
      accountId: owner.account.id,
      clientId: app.app.clientId,
      userId: dev.user.id,
      scope: ['usage:read'],
      now: f.clock.now,
    });
    const theirs = await f.store.oauthGrants.upsert({
      accountId: owner.account.id,
      clientId: app.app.clientId,
      userId: owner.user.id,
      scope: ['hash:create'],
      now: f.clock.now,
    });
    const listed = check(GrantListResponse, await listGrantsOp(f.ctx, dev));
    expect(listed.grants.map((g) => [g.appName, g.consentedBy.email]).sort()).toEqual(
      [
        ['Reporter', dev.user.email],
        ['Reporter', owner.user.email],
      ].sort(),
    );
    expect(await refusal(revokeGrantOp(f.ctx, dev, theirs.id))).toMatchObject({ code: 'FORBIDDEN' });
    await revokeGrantOp(f.ctx, dev, mine.id);
    await revokeGrantOp(f.ctx, owner, theirs.id);
    expect((await listGrantsOp(f.ctx, owner)).grants).toEqual([]);
    const stranger = await f.member('owner', 'enterprise');
    expect(await refusal(revokeGrantOp(f.ctx, stranger, mine.id))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('registers OAuth applications (Enterprise, admins), shows the secret once, rotates it and deletes the application', async () => {
    const owner = await f.member('owner', 'enterprise');
    const reg = check(
      RegisteredOAuthAppResponse,
      await registerOAuthAppOp(f.ctx, owner, { name: ' CI ', redirectUris: ['https://ci.example/cb'], public: false }),
    );
    expect(reg.app).toMatchObject({ name: 'CI', public: false, redirectUris: ['https://ci.example/cb'] });
    expect(reg.clientSecret).toMatch(/^s224cs_/);
    const row = await f.store.db.selectFrom('oauth_clients').selectAll().where('id', '=', reg.app.clientId).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashOAuthSecret(reg.clientSecret!));
    expect(JSON.stringify(await listOAuthAppsOp(f.ctx, owner))).not.toContain(reg.clientSecret);

    expect((await updateOAuthAppOp(f.ctx, owner, reg.app.clientId, { redirectUris: ['http://127.0.0.1:9000/cb'] })).redirectUris).toEqual([
      'http://127.0.0.1:9000/cb',
    ]);
    expect(await refusal(updateOAuthAppOp(f.ctx, owner, reg.app.clientId, { redirectUris: ['http://evil.example/cb'] }))).toMatchObject({
      code: 'INVALID_INPUT',
    });
    const rotated = await rotateOAuthSecretOp(f.ctx, owner, reg.app.clientId);
    expect(rotated.clientSecret).not.toBe(reg.clientSecret);
    const after = await f.store.db
      .selectFrom('oauth_clients')
      .select('secret_hash')
      .where('id', '=', reg.app.clientId)
      .executeTakeFirstOrThrow();
    expect(after.secret_hash).toBe(hashOAuthSecret(rotated.clientSecret));

    const dev = await f.member('developer', 'enterprise', owner.account.id);
    expect(
      await refusal(registerOAuthAppOp(f.ctx, dev, { name: 'x', redirectUris: ['https://x.example/cb'], public: true })),
    ).toMatchObject({ code: 'FORBIDDEN' });
    const pro = await f.member('owner', 'pro');
    expect(
      await refusal(registerOAuthAppOp(f.ctx, pro, { name: 'x', redirectUris: ['https://x.example/cb'], public: true })),
    ).toMatchObject({
      message: 'OAuth applications are available on the Enterprise plan',
    });
    expect(await refusal(deleteOAuthAppOp(f.ctx, pro, reg.app.clientId))).toMatchObject({ code: 'NOT_FOUND' }); // another account's
    await deleteOAuthAppOp(f.ctx, owner, reg.app.clientId);
    expect((await listOAuthAppsOp(f.ctx, owner)).apps).toEqual([]);
  });

  it('manages JWT keys (Enterprise, admins): add, refuse a taken kid, rotate all, delete', async () => {
    const admin = await f.member('admin', 'enterprise');
    const listed = check(JwtKeyListResponse, await addJwtKeysOp(f.ctx, admin, { format: 'pem', material: pem(), kid: 'k1' }));
    expect(listed).toMatchObject({ issuer: admin.account.id, audience: 'sha224d', keys: [{ kid: 'k1', alg: 'EdDSA', source: 'pem' }] });
    expect(await refusal(addJwtKeysOp(f.ctx, admin, { format: 'pem', material: pem(), kid: 'k1' }))).toMatchObject({
      details: 'field: kid',
    });
    await addJwtKeysOp(f.ctx, admin, { format: 'pem', material: pem(), kid: 'k2' });
    expect((await replaceJwtKeysOp(f.ctx, admin, { format: 'pem', material: pem(), kid: 'k3' })).keys.map((k) => k.kid)).toEqual(['k3']);
    await deleteJwtKeyOp(f.ctx, admin, 'k3');
    expect(await refusal(deleteJwtKeyOp(f.ctx, admin, 'k3'))).toMatchObject({ code: 'NOT_FOUND' });
    const viewer = await f.member('viewer', 'enterprise', admin.account.id);
    expect((await listJwtKeysOp(f.ctx, viewer)).keys).toEqual([]);
    expect(await refusal(addJwtKeysOp(f.ctx, viewer, { format: 'pem', material: pem(), kid: 'v' }))).toMatchObject({ code: 'FORBIDDEN' });
    const pro = await f.member('owner', 'pro');
    expect(await refusal(addJwtKeysOp(f.ctx, pro, { format: 'pem', material: pem(), kid: 'p' }))).toMatchObject({
      message: 'JSON Web Tokens are available on the Enterprise plan',
    });
  });
});
