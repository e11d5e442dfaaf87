/**
 * Dashboard sessions over Kysely. Only the SHA-256 of a session token is stored; a session is alive
 * while `now < expires_at` and `now < last_seen_at + idle_timeout_ms`. Dead rows are answered as
 * absent by `list`, refused by the session service, and deleted by `purgeExpired`.
 */
import type { Kysely, Selectable } from 'kysely';
import { isSessionAlive, type NewSession, type SessionRecord, type SessionStore } from './dashboard-types.js';
import { toDate } from './rows.js';
import type { SessionsTable } from './schema-dashboard.js';
import type { Database } from './schema.js';

/** Longest stored user agent; browsers send ~150 characters, anything longer is noise. */
const MAX_USER_AGENT = 256;

export class KyselySessionStore implements SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: NewSession): Promise<SessionRecord> {
    const at = input.now.getTime();
    const row: Selectable<SessionsTable> = {
      id: input.id,
      token_hash: input.tokenHash,
      user_id: input.userId,
      created_at: at,
      last_seen_at: at,
      expires_at: input.expiresAt.getTime(),
      idle_timeout_ms: input.idleTimeoutMs,
      user_agent: input.userAgent.slice(0, MAX_USER_AGENT),
      address: input.address.slice(0, 64),
    };
    await this.db.insertInto('sessions').values(row).execute();
    return toSession(row);
  }

  async findByTokenHash(tokenHash: string): Promise<{ session: SessionRecord; tokenHash: string } | undefined> {
    const row = await this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && { session: toSession(row), tokenHash: row.token_hash };
  }

  async touch(id: string, at: Date): Promise<void> {
    const ms = at.getTime();
    await this.db.updateTable('sessions').set({ last_seen_at: ms }).where('id', '=', id).where('last_seen_at', '<', ms).execute();
  }

  async rotate(id: string, newTokenHash: string, at: Date): Promise<boolean> {
    const ms = at.getTime();
    const res = await this.db
      .updateTable('sessions')
      .set({ token_hash: newTokenHash, last_seen_at: ms })
      .where('id', '=', id)
      .where('expires_at', '>', ms)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  async list(userId: string, now: Date): Promise<SessionRecord[]> {
    const ms = now.getTime();
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', ms)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toSession).filter((s) => isSessionAlive(s, now));
  }

  async end(userId: string, sessionId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
    return res.numDeletedRows > 0n;
  }

  async endAll(userId: string, exceptId?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const res = await query.executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async purgeExpired(now: Date): Promise<number> {
    const ms = now.getTime();
    const res = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', ms), eb(eb('last_seen_at', '+', eb.ref('idle_timeout_ms')), '<=', ms)]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

function toSession(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: toDate(row.created_at),
    lastSeenAt: toDate(row.last_seen_at),
    expiresAt: toDate(row.expires_at),
    idleTimeoutMs: Number(row.idle_timeout_ms),
    userAgent: row.user_agent,
    address: row.address,
  };
}
