/**
 * People and their memberships over Kysely. A person's consents end with their access: removing a
 * membership (or deleting the person) revokes, in the same transaction, every OAuth code and token
 * issued under a consent they gave (docs/decisions.md "Dashboard and accounts").
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { endConsents } from './consent-tokens.js';
import type { AccountMembershipRecord, MemberRecord, MembershipRecord, Role, UserRecord, UserStore } from './dashboard-types.js';
import { ROLES } from './dashboard-types.js';
import { toDate, toNullableDate } from './rows.js';
import type { MembershipsTable, UsersTable } from './schema-dashboard.js';
import type { Database } from './schema.js';

/** The case-insensitive identity of an email address: NFC, trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

export class KyselyUserStore implements UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  async createUser(input: { email: string; name: string }): Promise<UserRecord | undefined> {
    const row: Selectable<UsersTable> = {
      id: `usr_${randomUUID()}`,
      email: input.email.normalize('NFC').trim(),
      email_normalized: normalizeEmail(input.email),
      name: input.name,
      password_hash: null,
      password_changed_at: null,
      created_at: Date.now(),
    };
    // ON CONFLICT DO NOTHING: two concurrent creations of one email leave one row and one winner.
    const res = await this.db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.column('email_normalized').doNothing())
      .executeTakeFirst();
    return (res.numInsertedOrUpdatedRows ?? 0n) > 0n ? toUser(row) : undefined;
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async findUserByEmail(email: string): Promise<{ user: UserRecord; passwordHash: string | null } | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email_normalized', '=', normalizeEmail(email)).executeTakeFirst();
    return row && { user: toUser(row), passwordHash: row.password_hash };
  }

  async getPasswordHash(userId: string): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    return row?.password_hash;
  }

  async setPasswordHash(userId: string, passwordHash: string, at: Date): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, password_changed_at: at.getTime() })
      .where('id', '=', userId)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  async deleteUser(userId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await endConsents(trx, { userId });
      // Memberships, sessions, links and consents go by ON DELETE CASCADE.
      const res = await trx.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
      return res.numDeletedRows > 0n;
    });
  }

  async addMembership(accountId: string, userId: string, role: Role): Promise<boolean> {
    assertRole(role);
    const res = await this.db
      .insertInto('memberships')
      .values({ account_id: accountId, user_id: userId, role, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['account_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async getMembership(accountId: string, userId: string): Promise<MembershipRecord | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && toMembership(row);
  }

  async setRole(accountId: string, userId: string, role: Role, options: { endConsents?: boolean } = {}): Promise<boolean> {
    assertRole(role);
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('memberships')
        .set({ role })
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (res.numUpdatedRows === 0n) return false;
      if (options.endConsents === true) await endConsents(trx, { accountId, userId });
      return true;
    });
  }

  async removeMembership(accountId: string, userId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx.deleteFrom('memberships').where('account_id', '=', accountId).where('user_id', '=', userId).executeTakeFirst();
      if (res.numDeletedRows === 0n) return false;
      await endConsents(trx, { accountId, userId });
      return true;
    });
  }

  async listMembers(accountId: string): Promise<MemberRecord[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select(['u.email', 'u.name', 'u.password_hash'])
      .where('m.account_id', '=', accountId)
      .orderBy('u.email_normalized')
      .execute();
    return rows.map((r) => ({ ...toMembership(r), email: r.email, name: r.name, hasPassword: r.password_hash !== null }));
  }

  async listMemberships(userId: string): Promise<AccountMembershipRecord[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .selectAll('m')
      .select(['a.name as account_name', 'a.plan'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .orderBy('m.account_id')
      .execute();
    return rows.map((r) => ({ ...toMembership(r), accountName: r.account_name, plan: r.plan }));
  }

  async countOwners(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function assertRole(role: string): asserts role is Role {
  if (!(ROLES as readonly string[]).includes(role)) throw new RangeError(`role: must be one of ${ROLES.join(', ')}`);
}

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    hasPassword: row.password_hash !== null,
    passwordChangedAt: toNullableDate(row.password_changed_at),
    createdAt: toDate(row.created_at),
  };
}

function toMembership(row: Selectable<MembershipsTable>): MembershipRecord {
  return { accountId: row.account_id, userId: row.user_id, role: row.role as Role, createdAt: toDate(row.created_at) };
}
