/** One-time links, adding people to accounts and the first owner, on SQLite and PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapFirstOwner } from '../../shared/accounts/first-owner.js';
import { issueOneTimeLink, LINK_LIFETIME_MS } from '../../shared/accounts/one-time-links.js';
import { addPersonToAccount, validateEmail } from '../../shared/accounts/people.js';
import { hashToken } from '../../shared/accounts/secret-tokens.js';
import { createStore, type KyselyAccountStore } from '../../shared/store/kysely-store.js';
import { createTestDatabase, ENGINES, type TestDatabase } from '../store/engines.js';

const BASE = 'https://hash.example.com/ignored/path?x=1';
const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

describe.each(ENGINES)('people and links on %s', (engine) => {
  let t: TestDatabase;
  let store: KyselyAccountStore;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    store = await createStore(t.options);
  });
  afterAll(async () => {
    await store?.close();
    await t?.cleanup();
  });

  it('issues a 24-hour link in the URL fragment, storing only its hash', async () => {
    const user = (await store.users.createUser({ email: `${randomUUID()}@example.com`, name: '' }))!;
    const now = new Date(Date.UTC(2030, 0, 1));
    const link = await issueOneTimeLink(store, { userId: user.id, purpose: 'setup', baseUrl: BASE, now });
    expect(link.url).toMatch(/^https:\/\/hash\.example\.com\/dashboard\/set-password#token=s224l_[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toEqual(new Date(now.getTime() + LINK_LIFETIME_MS));
    const token = tokenOf(link.url);
    const rows = await store.db.selectFrom('one_time_links').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await store.oneTimeLinks.consume(hashToken(token), new Date(now.getTime() + LINK_LIFETIME_MS - 1))).toEqual({
      userId: user.id,
      purpose: 'setup',
    });
  });

  it('adds a new person with a setup link, an existing one with a password without a link, and reports a repeat', async () => {
    const acc = await store.createAccount({ name: 'Team', plan: 'pro' });
    const email = `New.${randomUUID()}@Example.com`;
    const first = await addPersonToAccount(store, {
      accountId: acc.id,
      email: `  ${email}`,
      name: ' Ada ',
      role: 'developer',
      baseUrl: BASE,
    });
    expect(first).toMatchObject({ created: true, added: true, user: { email, name: 'Ada', hasPassword: false } });
    expect(first.setupLink?.url).toContain('#token=s224l_');

    const again = await addPersonToAccount(store, { accountId: acc.id, email: email.toLowerCase(), role: 'admin', baseUrl: BASE });
    expect(again).toMatchObject({ created: false, added: false });
    expect((await store.users.getMembership(acc.id, first.user.id))?.role).toBe('developer');
    // The second link replaced the first.
    expect(await store.oneTimeLinks.peek(hashToken(tokenOf(first.setupLink!.url)), new Date())).toBeUndefined();

    await store.users.setPasswordHash(first.user.id, '$scrypt$x', new Date());
    const other = await store.createAccount({ name: 'Other', plan: 'free' });
    const existing = await addPersonToAccount(store, { accountId: other.id, email, role: 'viewer', baseUrl: BASE });
    expect(existing).toMatchObject({ created: false, added: true, setupLink: undefined });
    await expect(addPersonToAccount(store, { accountId: 'acc_missing', email, role: 'viewer', baseUrl: BASE })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('creates the first owner once, with a setup link', async () => {
    const acc = await store.createAccount({ name: 'admin', plan: 'enterprise' });
    const first = await bootstrapFirstOwner(store, { accountId: acc.id, email: 'admin@localhost', baseUrl: 'http://127.0.0.1:8080' });
    expect(first?.email).toBe('admin@localhost');
    expect(first?.link.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/dashboard\/set-password#token=s224l_/);
    const members = await store.users.listMembers(acc.id);
    expect(members.map((m) => [m.email, m.role])).toEqual([['admin@localhost', 'owner']]);
    expect(
      await bootstrapFirstOwner(store, { accountId: acc.id, email: 'admin@localhost', baseUrl: 'http://127.0.0.1:8080' }),
    ).toBeUndefined();
  });
});

describe('validateEmail', () => {
  it.each(['a@b', 'admin@localhost', 'Ada.Lovelace+tag@example.co.uk', ' spaced@example.com '])('accepts %j', (email) => {
    expect(validateEmail(email)).toBe(email.trim());
  });
  it.each(['', 'no-at', 'two@@example.com', 'a b@example.com', '@example.com', 'a@', `${'x'.repeat(65)}@example.com`, 42])(
    'refuses %j',
    (email) => {
      expect(() => validateEmail(email)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', details: 'field: email' }));
    },
  );
});
