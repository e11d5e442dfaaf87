/** One-time links, adding people to accounts and the first owner, on SQLite and PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bootstrapFirstOwner } from '../../shared/accounts/first-owner.js';
import { issueOneTimeLink, LINK_LIFETIME_MS } from '../../shared/accounts/one-time-links.js';
import { addPersonToAccount, validateEmail } from '../../shared/accounts/people.js';
import { hashToken } from '../../shared/accounts/secret-tokens.js';
import { ENGINES, storeOnEngine } from '../store/engines.js';

const BASE = 'https://hash.example.com/ignored/path?x=1';
const tokenOf = (url: string) => new URL(url).hash.replace(/^#token=/, '');

describe.each(ENGINES)('people and links on %s', (engine) => {
  const db = storeOnEngine(engine);

  it('issues a 24-hour link in the URL fragment, storing only its hash', async () => {
    const user = (await db.store.users.createUser({ email: `${randomUUID()}@example.com`, name: '' }))!;
    const now = new Date(Date.UTC(2030, 0, 1));
    const link = await issueOneTimeLink(db.store, { userId: user.id, purpose: 'setup', baseUrl: BASE, now });
    expect(link.url).toMatch(/^https:\/\/hash\.example\.com\/dashboard\/set-password#token=s224l_[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toEqual(new Date(now.getTime() + LINK_LIFETIME_MS));
    const token = tokenOf(link.url);
    const rows = await db.store.db.selectFrom('one_time_links').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await db.store.oneTimeLinks.consume(hashToken(token), new Date(now.getTime() + LINK_LIFETIME_MS - 1))).toEqual({
      userId: user.id,
      purpose: 'setup',
    });
  });

  it('adds a new person with a setup link, an existing one with a password without a link, and reports a repeat', async () => {
    const acc = await db.store.createAccount({ name: 'Team', plan: 'pro' });
    const email = `New.${randomUUID()}@Example.com`;
    const first = await addPersonToAccount(db.store, {
      accountId: acc.id,
      email: `  ${email}`,
      name: ' Ada ',
      role: 'developer',
      baseUrl: BASE,
    });
    expect(first).toMatchObject({ created: true, added: true, user: { email, name: 'Ada', hasPassword: false } });
    expect(first.setupLink?.url).toContain('#token=s224l_');

    const again = await addPersonToAccount(db.store, { accountId: acc.id, email: email.toLowerCase(), role: 'admin', baseUrl: BASE });
    expect(again).toMatchObject({ created: false, added: false });
    expect((await db.store.users.getMembership(acc.id, first.user.id))?.role).toBe('developer');
    // The second link replaced the first.
    expect(await db.store.oneTimeLinks.peek(hashToken(tokenOf(first.setupLink!.url)), new Date())).toBeUndefined();

    await db.store.users.setPasswordHash(first.user.id, '$scrypt$x', new Date());
    const other = await db.store.createAccount({ name: 'Other', plan: 'free' });
    const existing = await addPersonToAccount(db.store, { accountId: other.id, email, role: 'viewer', baseUrl: BASE });
    expect(existing).toMatchObject({ created: false, added: true, setupLink: undefined });
    await expect(addPersonToAccount(db.store, { accountId: 'acc_missing', email, role: 'viewer', baseUrl: BASE })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('creates the first owner once, with a setup link', async () => {
    const acc = await db.store.createAccount({ name: 'admin', plan: 'enterprise' });
    const first = await bootstrapFirstOwner(db.store, { accountId: acc.id, email: 'admin@localhost', baseUrl: 'http://127.0.0.1:8080' });
    expect(first?.email).toBe('admin@localhost');
    expect(first?.link.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/dashboard\/set-password#token=s224l_/);
    const members = await db.store.users.listMembers(acc.id);
    expect(members.map((m) => [m.email, m.role])).toEqual([['admin@localhost', 'owner']]);
    expect(
      await bootstrapFirstOwner(db.store, { accountId: acc.id, email: 'admin@localhost', baseUrl: 'http://127.0.0.1:8080' }),
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
