/**
 * The transparency log's rows (docs/proving.md). One sequencer: appending takes the log's lock
 * (PostgreSQL: a transaction-scoped advisory lock keyed by the schema, so any number of API nodes
 * append in turn; SQLite: embedded mode's one process, whose Kysely connection runs one transaction
 * at a time), reads the next index and inserts, so indices are gap-free and unique, and the leaves
 * are committed before any index is returned. Checkpoints are published the same way, and only when
 * larger than the last one: a published size never goes backwards.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { isPostgres } from './database.js';
import { ADVISORY_LOCK_CLASS } from './migrations.js';
import type { Database } from './schema.js';

export interface StoredLeaf {
  readonly index: number;
  readonly leaf: Buffer;
  readonly leafHash: Buffer;
}

export interface StoredCheckpoint {
  readonly size: number;
  readonly root: Buffer;
  readonly note: string;
}

export interface LogStore {
  /** Appends the leaves in order; resolves the index of the first once committed. */
  append(leaves: ReadonlyArray<{ leaf: Buffer; leafHash: Buffer }>): Promise<number>;
  /** Leaves from `start` on, in index order, at most `limit`. */
  leavesFrom(start: number, limit: number): Promise<StoredLeaf[]>;
  latestCheckpoint(): Promise<StoredCheckpoint | undefined>;
  /**
   * Stores `checkpoint` if it is larger than the latest; resolves the latest afterwards (this one,
   * or the larger one another node published first).
   */
  publishCheckpoint(checkpoint: StoredCheckpoint): Promise<StoredCheckpoint>;
}

/** Rows per INSERT: well under both engines' bound-parameter limits (4 per row). */
const INSERT_CHUNK = 500;

export class KyselyLogStore implements LogStore {
  constructor(private readonly db: Kysely<Database>) {}

  private async lock(trx: Transaction<Database>): Promise<void> {
    if (!isPostgres(this.db)) return;
    await sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_CLASS}::int, hashtext(current_schema() || ':transparency-log'))`.execute(trx);
  }

  append(leaves: ReadonlyArray<{ leaf: Buffer; leafHash: Buffer }>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await this.lock(trx);
      const row = await trx
        .selectFrom('log_leaves')
        .select((eb) => eb.fn.max('idx').as('last'))
        .executeTakeFirst();
      const first = row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
      const now = Date.now();
      for (let at = 0; at < leaves.length; at += INSERT_CHUNK) {
        const values = leaves.slice(at, at + INSERT_CHUNK).map((l, i) => ({
          idx: first + at + i,
          leaf: l.leaf.toString('utf8'),
          leaf_hash: l.leafHash.toString('hex'),
          created_at: now,
        }));
        await trx.insertInto('log_leaves').values(values).execute();
      }
      return first;
    });
  }

  async leavesFrom(start: number, limit: number): Promise<StoredLeaf[]> {
    const rows = await this.db
      .selectFrom('log_leaves')
      .select(['idx', 'leaf', 'leaf_hash'])
      .where('idx', '>=', start)
      .orderBy('idx')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ index: Number(r.idx), leaf: Buffer.from(r.leaf, 'utf8'), leafHash: Buffer.from(r.leaf_hash, 'hex') }));
  }

  async latestCheckpoint(): Promise<StoredCheckpoint | undefined> {
    const row = await this.db
      .selectFrom('log_checkpoints')
      .select(['size', 'root', 'note'])
      .orderBy('size', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { size: Number(row.size), root: Buffer.from(row.root, 'hex'), note: row.note };
  }

  publishCheckpoint(checkpoint: StoredCheckpoint): Promise<StoredCheckpoint> {
    return this.db.transaction().execute(async (trx) => {
      await this.lock(trx);
      const latest = await trx
        .selectFrom('log_checkpoints')
        .select(['size', 'root', 'note'])
        .orderBy('size', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (latest && Number(latest.size) >= checkpoint.size) {
        return { size: Number(latest.size), root: Buffer.from(latest.root, 'hex'), note: latest.note };
      }
      await trx
        .insertInto('log_checkpoints')
        .values({ size: checkpoint.size, root: checkpoint.root.toString('hex'), note: checkpoint.note, created_at: Date.now() })
        .execute();
      return checkpoint;
    });
  }
}
