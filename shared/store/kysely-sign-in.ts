/**
 * One-time links (first password, password reset) and sign-in throttling counters over Kysely.
 * Links are kept as the SHA-256 of their token; spending one is a single conditional UPDATE, so two
 * requests racing with the same link see one winner. Throttle counters are fixed windows per
 * subject, advanced by one upsert, so every API node counts into the same row.
 */
import { type Kysely, sql } from 'kysely';
import { LINK_PURPOSES, type LinkPurpose, type OneTimeLinkStore, type SignInThrottleStore, type ThrottleState } from './dashboard-types.js';
import { toDate } from './rows.js';
import type { Database } from './schema.js';

export class KyselyOneTimeLinkStore implements OneTimeLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: { tokenHash: string; userId: string; purpose: LinkPurpose; expiresAt: Date; now: Date }): Promise<void> {
    if (!(LINK_PURPOSES as readonly string[]).includes(input.purpose)) throw new RangeError('purpose: must be setup or reset');
    const at = input.now.getTime();
    await this.db.transaction().execute(async (trx) => {
      // The newest link wins: an earlier one that leaked from an old email stops working.
      await trx.deleteFrom('one_time_links').where('user_id', '=', input.userId).where('consumed_at', 'is', null).execute();
      await trx
        .insertInto('one_time_links')
        .values({
          token_hash: input.tokenHash,
          user_id: input.userId,
          purpose: input.purpose,
          created_at: at,
          expires_at: input.expiresAt.getTime(),
          consumed_at: null,
        })
        .execute();
    });
  }

  async consume(tokenHash: string, now: Date): Promise<{ userId: string; purpose: LinkPurpose } | undefined> {
    const ms = now.getTime();
    const row = await this.db
      .updateTable('one_time_links')
      .set({ consumed_at: ms })
      .where('token_hash', '=', tokenHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', ms)
      .returning(['user_id', 'purpose'])
      .executeTakeFirst();
    return row && { userId: row.user_id, purpose: row.purpose as LinkPurpose };
  }

  async peek(tokenHash: string, now: Date): Promise<{ userId: string; purpose: LinkPurpose } | undefined> {
    const row = await this.db
      .selectFrom('one_time_links')
      .select(['user_id', 'purpose'])
      .where('token_hash', '=', tokenHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now.getTime())
      .executeTakeFirst();
    return row && { userId: row.user_id, purpose: row.purpose as LinkPurpose };
  }
}

export class KyselySignInThrottleStore implements SignInThrottleStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get(subjects: readonly string[], windowMs: number, now: Date): Promise<Map<string, ThrottleState>> {
    const out = new Map<string, ThrottleState>();
    if (subjects.length === 0) return out;
    const rows = await this.db
      .selectFrom('sign_in_throttle')
      .selectAll()
      .where('subject', 'in', [...subjects])
      .where('window_started_at', '>', now.getTime() - windowMs)
      .execute();
    for (const r of rows) out.set(r.subject, { failures: Number(r.failures), windowStartedAt: toDate(r.window_started_at) });
    return out;
  }

  async recordFailure(subject: string, windowMs: number, now: Date): Promise<number> {
    const ms = now.getTime();
    const windowOpenAfter = ms - windowMs;
    // One statement: a closed window restarts at 1 from now, an open one counts on.
    const row = await this.db
      .insertInto('sign_in_throttle')
      .values({ subject, window_started_at: ms, failures: 1 })
      .onConflict((oc) =>
        oc.column('subject').doUpdateSet({
          failures: sql<number>`case when sign_in_throttle.window_started_at > ${windowOpenAfter} then sign_in_throttle.failures + 1 else 1 end`,
          window_started_at: sql<number>`case when sign_in_throttle.window_started_at > ${windowOpenAfter} then sign_in_throttle.window_started_at else ${ms} end`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return Number(row.failures);
  }

  async clear(subject: string): Promise<void> {
    await this.db.deleteFrom('sign_in_throttle').where('subject', '=', subject).execute();
  }
}
