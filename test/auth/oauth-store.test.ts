import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuthClient } from '../../shared/oauth/clients.js';
import type { OAuthServerStore } from '../../shared/store/oauth-server-types.js';
import { generateOAuthSecret, hashOAuthSecret, isOAuthSecret, oauthSecretMatches } from '../../shared/oauth/tokens.js';
import { createOAuthVerifier } from '../../api/oauth/server/verifier.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { createTestDatabase, ENGINES, type TestDatabase } from '../store/engines.js';

describe('OAuth secrets', () => {
  it('are prefixed, 256-bit, never API-key- or JWT-shaped, and checked in constant time', () => {
    const token = generateOAuthSecret('accessToken');
    expect(token).toMatch(/^s224at_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith('s224_')).toBe(false);
    expect(token).not.toContain('.');
    expect(isOAuthSecret('accessToken', token)).toBe(true);
    expect(isOAuthSecret('refreshToken', token)).toBe(false);
    expect(isOAuthSecret('accessToken', token + 'x')).toBe(false);
    expect(isOAuthSecret('accessToken', 42)).toBe(false);
    expect(new Set(Array.from({ length: 100 }, () => generateOAuthSecret('code'))).size).toBe(100);
    expect(oauthSecretMatches(token, hashOAuthSecret(token))).toBe(true);
    expect(oauthSecretMatches(token, hashOAuthSecret(generateOAuthSecret('accessToken')))).toBe(false);
    expect(oauthSecretMatches(token, '')).toBe(false);
  });
});

describe.each(ENGINES)('OAuth store on %s', (engine) => {
  let t: TestDatabase;
  let store: KyselyAccountStore;
  let oauth: OAuthServerStore;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    store = await createStore(t.options);
    oauth = store.oauthServer;
    accountId = (await store.createAccount({ name: 'ent', plan: 'enterprise' })).id;
  });
  afterAll(async () => {
    await store?.close();
    await t?.cleanup();
  });

  async function newCode(clientId: string, grantId = generateOAuthSecret('grantId'), expiresAt = new Date(Date.now() + 60_000)) {
    const code = generateOAuthSecret('code');
    await oauth.insertCode(hashOAuthSecret(code), {
      clientId,
      accountId,
      grantId,
      redirectUri: 'https://a.example/cb',
      scope: ['hash:create'],
      codeChallenge: 'c'.repeat(43),
      codeChallengeMethod: 'S256',
      expiresAt,
    });
    return { code, grantId };
  }

  async function newTokens(clientId: string, grantId: string, expiresAt = new Date(Date.now() + 3_600_000)) {
    const access = generateOAuthSecret('accessToken');
    const refresh = generateOAuthSecret('refreshToken');
    const base = { clientId, accountId, grantId, scope: ['hash:create', 'hash:verify'], expiresAt };
    await oauth.insertTokens({ ...base, tokenHash: hashOAuthSecret(access) }, { ...base, tokenHash: hashOAuthSecret(refresh) });
    return { access, refresh };
  }

  it('registers a client with its secret hashed, and finds it', async () => {
    const { clientId, clientSecret, client } = await registerOAuthClient(store, {
      accountId,
      name: ' App ',
      redirectUris: ['https://a.example/cb', 'https://a.example/cb'],
    });
    expect(client).toMatchObject({ id: clientId, name: 'App', redirectUris: ['https://a.example/cb'], accountId, isPublic: false });
    const found = await oauth.findClient(clientId);
    expect(found?.secretHash).toBe(hashOAuthSecret(clientSecret!));
    expect((await oauth.listClients(accountId)).map((c) => c.id)).toContain(clientId);
  });

  it.each([
    ['a non-Enterprise account', { plan: 'pro' }, /Enterprise/],
    ['an unknown account', { accountId: 'acc_nope' }, /Unknown account/],
    ['no redirect URI', { redirectUris: [] }, /redirect URIs/],
    ['an http URI off loopback', { redirectUris: ['http://a.example/cb'] }, /https/],
    ['a fragment', { redirectUris: ['https://a.example/cb#x'] }, /fragment/],
    ['user info', { redirectUris: ['https://u:p@a.example/cb'] }, /user info/],
    ['a relative URI', { redirectUris: ['/cb'] }, /absolute/],
    ['an empty name', { name: '  ' }, /Name/],
  ])('refuses to register %s', async (_name, override, message) => {
    const plan = (override as { plan?: 'pro' }).plan;
    const owner = plan ? (await store.createAccount({ name: 'p', plan })).id : accountId;
    await expect(
      registerOAuthClient(store, { accountId: owner, name: 'App', redirectUris: ['https://a.example/cb'], ...override }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(message) });
  });

  it('consumes a code once, even when two exchanges race', async () => {
    const { clientId } = await registerOAuthClient(store, { accountId, name: 'Race', redirectUris: ['https://a.example/cb'] });
    const { code } = await newCode(clientId);
    const results = await Promise.all(Array.from({ length: 8 }, () => oauth.consumeCode(hashOAuthSecret(code))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await oauth.findCode(hashOAuthSecret(code)))?.consumedAt).toBeInstanceOf(Date);
  });

  it('revokes a refresh token once, and a grant entirely', async () => {
    const { clientId } = await registerOAuthClient(store, { accountId, name: 'Grant', redirectUris: ['https://a.example/cb'] });
    const { grantId } = await newCode(clientId);
    const a = await newTokens(clientId, grantId);
    const b = await newTokens(clientId, grantId);
    const other = await newTokens(clientId, generateOAuthSecret('grantId'));
    expect(await oauth.revokeRefreshToken(hashOAuthSecret(a.refresh))).toBe(true);
    expect(await oauth.revokeRefreshToken(hashOAuthSecret(a.refresh))).toBe(false);
    await oauth.revokeGrant(grantId);
    for (const token of [a.access, b.access]) expect((await oauth.findAccessToken(hashOAuthSecret(token)))?.revokedAt).toBeInstanceOf(Date);
    expect((await oauth.findRefreshToken(hashOAuthSecret(b.refresh)))?.revokedAt).toBeInstanceOf(Date);
    expect((await oauth.findAccessToken(hashOAuthSecret(other.access)))?.revokedAt).toBeNull();
  });

  it('rotates a refresh token atomically: one winner among racers, and a failed save revokes nothing', async () => {
    const { clientId } = await registerOAuthClient(store, { accountId, name: 'Rotate', redirectUris: ['https://a.example/cb'] });
    const grantId = generateOAuthSecret('grantId');
    const before = Date.now();
    const first = await newTokens(clientId, grantId);
    const base = { clientId, accountId, grantId, scope: ['hash:create'], expiresAt: new Date(Date.now() + 60_000) };
    const successor = () => ({ ...base, tokenHash: hashOAuthSecret(generateOAuthSecret('accessToken')) });
    const refreshSuccessor = () => ({ ...base, tokenHash: hashOAuthSecret(generateOAuthSecret('refreshToken')) });

    // A save that fails half-way (the new refresh token collides with an existing row) rolls back the revocation.
    const collision = { ...base, tokenHash: hashOAuthSecret(first.refresh) };
    await expect(oauth.rotateRefreshToken(hashOAuthSecret(first.refresh), successor(), collision)).rejects.toThrow();
    const kept = await oauth.findRefreshToken(hashOAuthSecret(first.refresh));
    expect(kept?.revokedAt).toBeNull();
    expect(kept?.issuedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const racers = Array.from({ length: 6 }, () => ({ access: successor(), refresh: refreshSuccessor() }));
    const results = await Promise.all(racers.map((r) => oauth.rotateRefreshToken(hashOAuthSecret(first.refresh), r.access, r.refresh)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await oauth.findRefreshToken(hashOAuthSecret(first.refresh)))?.revokedAt).toBeInstanceOf(Date);
    // Only the winner's successors were stored.
    const stored = await Promise.all(racers.map((r) => oauth.findRefreshToken(r.refresh.tokenHash)));
    expect(stored.map((row) => row !== undefined)).toEqual(results);
    const storedAccess = await Promise.all(racers.map((r) => oauth.findAccessToken(r.access.tokenHash)));
    expect(storedAccess.map((row) => row !== undefined)).toEqual(results);
  });

  it('the verifier maps a live token to an oauth principal with its scopes', async () => {
    const { clientId } = await registerOAuthClient(store, { accountId, name: 'Verifier', redirectUris: ['https://a.example/cb'] });
    const { access } = await newTokens(clientId, generateOAuthSecret('grantId'));
    expect(await createOAuthVerifier({ store: store.oauthServer }).verify(access)).toEqual({
      accountId,
      plan: 'enterprise',
      credentialId: `oauth:${clientId}`,
      via: 'oauth',
      keyType: 'production',
      allowedDomains: [],
      permissions: ['hash:create', 'hash:verify'],
    });
    const later = createOAuthVerifier({ store: store.oauthServer, now: () => new Date(Date.now() + 3_601_000) });
    await expect(later.verify(access)).rejects.toMatchObject({ code: 'EXPIRED_KEY' });
    await expect(createOAuthVerifier({ store: store.oauthServer }).verify(access.replace('s224at_', 's224rt_'))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('purges rows expired for longer than the grace period, and deleting a client deletes its rows', async () => {
    const { clientId } = await registerOAuthClient(store, { accountId, name: 'Purge', redirectUris: ['https://a.example/cb'] });
    const old = new Date(Date.now() - 2 * 24 * 3600_000);
    const stale = await newCode(clientId, undefined, old);
    const staleTokens = await newTokens(clientId, stale.grantId, old);
    const fresh = await newCode(clientId);
    const freshTokens = await newTokens(clientId, fresh.grantId);
    await oauth.purgeExpired();
    expect(await oauth.findCode(hashOAuthSecret(stale.code))).toBeUndefined();
    expect(await oauth.findAccessToken(hashOAuthSecret(staleTokens.access))).toBeUndefined();
    expect(await oauth.findRefreshToken(hashOAuthSecret(staleTokens.refresh))).toBeUndefined();
    expect(await oauth.findCode(hashOAuthSecret(fresh.code))).toBeDefined();

    expect(await oauth.deleteClient(clientId)).toBe(true);
    expect(await oauth.deleteClient(clientId)).toBe(false);
    expect(await oauth.findCode(hashOAuthSecret(fresh.code))).toBeUndefined();
    expect(await oauth.findAccessToken(hashOAuthSecret(freshTokens.access))).toBeUndefined();
  });
});
