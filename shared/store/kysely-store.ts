/**
 * The AccountStore over Kysely: one code path for SQLite and PostgreSQL. Rows are mapped to the
 * domain types of types.ts here and nowhere else; timestamps cross as epoch milliseconds.
 */
import { KyselyLogStore } from './kysely-log.js';
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { openDatabase, type OpenDatabaseOptions } from './database.js';
import { withFirstStartLock } from './first-start-lock.js';
import { migrateToLatest } from './migrations.js';
import { KyselyJwtKeyStore } from './kysely-jwt-keys.js';
import { KyselyKeySettingsStore } from './kysely-key-settings.js';
import { KyselyKeyUsageStore } from './kysely-key-usage.js';
import { KyselyUsageFlushes } from './kysely-usage-flush.js';
import { KyselyOAuthAppStore, KyselyOAuthGrantStore } from './kysely-oauth.js';
import { KyselyOAuthServerStore } from './kysely-oauth-server.js';
import { KyselyOneTimeLinkStore, KyselySignInThrottleStore } from './kysely-sign-in.js';
import { KyselySessionStore } from './kysely-sessions.js';
import { KyselyUserStore } from './kysely-users.js';
import { newKeyRow, toAccount, toKey } from './rows.js';
import type { Database } from './schema.js';
import {
  type Account,
  type AccountStore,
  type ApiKeyRecord,
  type NewAccount,
  type NewApiKey,
  type Plan,
  PLANS,
  type UsageFlush,
  type UsageScope,
} from './types.js';

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const USAGE_SCOPES: readonly UsageScope[] = ['production', 'sandbox'];

/** Opens the database, applies pending migrations and returns the store. */
export async function createStore(options: OpenDatabaseOptions): Promise<KyselyAccountStore> {
  const db = await openDatabase(options);
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  return new KyselyAccountStore(db);
}

export class KyselyAccountStore implements AccountStore {
  readonly db: Kysely<Database>;
  readonly users: KyselyUserStore;
  readonly sessions: KyselySessionStore;
  readonly oneTimeLinks: KyselyOneTimeLinkStore;
  readonly signInThrottle: KyselySignInThrottleStore;
  readonly oauthApps: KyselyOAuthAppStore;
  readonly oauthGrants: KyselyOAuthGrantStore;
  readonly jwtKeys: KyselyJwtKeyStore;
  readonly keySettings: KyselyKeySettingsStore;
  readonly keyUsage: KyselyKeyUsageStore;
  readonly oauthServer: KyselyOAuthServerStore;
  /** Applied usage flushes (applyUsage); `prune()` is also run by the store itself now and then. */
  readonly usageFlushes: KyselyUsageFlushes;
  /** The transparency log's leaves and checkpoints (shared/proof/log.ts). */
  readonly transparencyLog: KyselyLogStore;
  #closing: Promise<void> | undefined;

  constructor(db: Kysely<Database>) {
    this.db = db;
    this.users = new KyselyUserStore(db);
    this.sessions = new KyselySessionStore(db);
    this.oneTimeLinks = new KyselyOneTimeLinkStore(db);
    this.signInThrottle = new KyselySignInThrottleStore(db);
    this.oauthApps = new KyselyOAuthAppStore(db);
    this.oauthGrants = new KyselyOAuthGrantStore(db);
    this.jwtKeys = new KyselyJwtKeyStore(db);
    this.keySettings = new KyselyKeySettingsStore(db);
    this.keyUsage = new KyselyKeyUsageStore(db);
    this.oauthServer = new KyselyOAuthServerStore(db);
    this.usageFlushes = new KyselyUsageFlushes(db);
    this.transparencyLog = new KyselyLogStore(db);
  }

  async createAccount(input: NewAccount): Promise<Account> {
    assertPlan(input.plan);
    const row = { id: `acc_${randomUUID()}`, name: input.name, plan: input.plan, created_at: Date.now(), allowed_ips: '[]' };
    await this.db.insertInto('accounts').values(row).execute();
    return toAccount(row);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
  }

  async listAccounts(): Promise<Account[]> {
    const rows = await this.db.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toAccount);
  }

  async setPlan(accountId: string, plan: Plan): Promise<boolean> {
    assertPlan(plan);
    const res = await this.db.updateTable('accounts').set({ plan }).where('id', '=', accountId).executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  async insertKey(input: NewApiKey & { id: string; prefix: string; keyHash: string }): Promise<ApiKeyRecord> {
    const row = newKeyRow(input, Date.now());
    await this.db.insertInto('api_keys').values(row).execute();
    return toKey(row);
  }

  async findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; keyHash: string; account: Account } | undefined> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .selectAll('k')
      .select([
        'a.name as account_name',
        'a.plan as account_plan',
        'a.created_at as account_created_at',
        'a.allowed_ips as account_allowed_ips',
      ])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const account = toAccount({
      id: row.account_id,
      name: row.account_name,
      plan: row.account_plan,
      created_at: row.account_created_at,
      allowed_ips: row.account_allowed_ips,
    });
    return { key: toKey(row), keyHash: row.key_hash, account };
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toKey(row);
  }

  async listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    let query = this.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return (await query.execute()).map(toKey);
  }

  async revokeKey(id: string): Promise<boolean> {
    // `revoked_at IS NULL` makes revocation a one-way transition that keeps its first timestamp.
    const res = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  async touchKey(id: string, at: Date): Promise<void> {
    const ms = at.getTime();
    // Never moves last_used_at backwards when two nodes touch the same key out of order.
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: ms })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', ms)]))
      .execute();
  }

  async addUsage(accountId: string, day: string, scope: UsageScope, count: number): Promise<void> {
    assertUsageArgs(day, scope);
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count: must be a non-negative integer');
    if (count === 0) return;
    // One statement: the row lock taken by ON CONFLICT … DO UPDATE (PostgreSQL) or the database write
    // lock (SQLite) serialises concurrent increments, so none is lost.
    await this.db
      .insertInto('usage_daily')
      .values({ account_id: accountId, day, scope, count })
      .onConflict((oc) =>
        oc.columns(['account_id', 'day', 'scope']).doUpdateSet((eb) => ({ count: eb('usage_daily.count', '+', eb.ref('excluded.count')) })),
      )
      .execute();
  }

  applyUsage(flush: UsageFlush): Promise<void> {
    return this.usageFlushes.apply(flush);
  }

  async getUsage(accountId: string, day: string, scope: UsageScope): Promise<number> {
    assertUsageArgs(day, scope);
    const row = await this.db
      .selectFrom('usage_daily')
      .select('count')
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .where('scope', '=', scope)
      .executeTakeFirst();
    return row ? Number(row.count) : 0;
  }

  withFirstStartLock<T>(work: () => Promise<T>): Promise<T> {
    return withFirstStartLock(this.db, work);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Idempotent: a second call returns the first call's promise. */
  close(): Promise<void> {
    this.#closing ??= this.db.destroy();
    return this.#closing;
  }
}

function assertPlan(plan: string): asserts plan is Plan {
  if (!(PLANS as readonly string[]).includes(plan)) throw new RangeError(`plan: must be one of ${PLANS.join(', ')}`);
}

function assertUsageArgs(day: string, scope: UsageScope): void {
  if (!DAY_RE.test(day)) throw new RangeError("day: must be 'YYYY-MM-DD'");
  if (!USAGE_SCOPES.includes(scope)) throw new RangeError(`scope: must be one of ${USAGE_SCOPES.join(', ')}`);
}
