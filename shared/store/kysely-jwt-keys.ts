/**
 * Per-account JWT verification keys over Kysely: public keys only (ES256 or EdDSA), each under the
 * `kid` tokens name. Tokens are checked against this table on every request, so deleting or
 * replacing a key cuts its tokens off at once (docs/decisions.md "Dashboard and accounts").
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  type AccountJwtKeyRecord,
  JWT_KEY_ALGORITHMS,
  type JwtKeyAlgorithm,
  type JwtKeySource,
  type JwtKeyStore,
  type NewAccountJwtKey,
  type PublicJwk,
} from './dashboard-types.js';
import { toDate, toNullableDate } from './rows.js';
import type { AccountJwtKeysTable } from './schema-dashboard.js';
import type { Database } from './schema.js';

export class KyselyJwtKeyStore implements JwtKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async add(accountId: string, keys: readonly NewAccountJwtKey[]): Promise<AccountJwtKeyRecord[] | undefined> {
    assertDistinctKids(keys);
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('account_jwt_keys')
        .select('kid')
        .where('account_id', '=', accountId)
        .where(
          'kid',
          'in',
          keys.map((k) => k.kid),
        )
        .execute();
      if (taken.length > 0) return undefined;
      return insertAll(trx, accountId, keys);
    });
  }

  async replaceAll(accountId: string, keys: readonly NewAccountJwtKey[]): Promise<AccountJwtKeyRecord[]> {
    assertDistinctKids(keys);
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('account_jwt_keys').where('account_id', '=', accountId).execute();
      return insertAll(trx, accountId, keys);
    });
  }

  async list(accountId: string): Promise<AccountJwtKeyRecord[]> {
    const rows = await this.db
      .selectFrom('account_jwt_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('kid')
      .execute();
    return rows.map(toJwtKey);
  }

  async find(accountId: string, kid: string): Promise<AccountJwtKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('account_jwt_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('kid', '=', kid)
      .executeTakeFirst();
    return row && toJwtKey(row);
  }

  async delete(accountId: string, kid: string): Promise<boolean> {
    const res = await this.db.deleteFrom('account_jwt_keys').where('account_id', '=', accountId).where('kid', '=', kid).executeTakeFirst();
    return res.numDeletedRows > 0n;
  }

  async touch(id: string, at: Date): Promise<void> {
    const ms = at.getTime();
    await this.db
      .updateTable('account_jwt_keys')
      .set({ last_used_at: ms })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', ms)]))
      .execute();
  }
}

async function insertAll(trx: Transaction<Database>, accountId: string, keys: readonly NewAccountJwtKey[]): Promise<AccountJwtKeyRecord[]> {
  const now = Date.now();
  const rows = keys.map((k): Selectable<AccountJwtKeysTable> => ({
    id: `jwk_${randomUUID()}`,
    account_id: accountId,
    kid: k.kid,
    alg: k.alg,
    public_jwk: JSON.stringify(k.publicJwk),
    source: k.source,
    created_at: now,
    last_used_at: null,
  }));
  if (rows.length > 0) await trx.insertInto('account_jwt_keys').values(rows).execute();
  return rows.map(toJwtKey);
}

function assertDistinctKids(keys: readonly NewAccountJwtKey[]): void {
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw new RangeError('keys: each kid must be distinct');
  for (const k of keys) {
    if (!(JWT_KEY_ALGORITHMS as readonly string[]).includes(k.alg))
      throw new RangeError(`alg: must be one of ${JWT_KEY_ALGORITHMS.join(', ')}`);
  }
}

function toJwtKey(row: Selectable<AccountJwtKeysTable>): AccountJwtKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    kid: row.kid,
    alg: row.alg as JwtKeyAlgorithm,
    publicJwk: JSON.parse(row.public_jwk) as PublicJwk,
    source: row.source as JwtKeySource,
    createdAt: toDate(row.created_at),
    lastUsedAt: toNullableDate(row.last_used_at),
  };
}
