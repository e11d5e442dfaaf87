/**
 * The transparency log's rows (docs/proving.md). One sequencer: appending takes the log's lock
 * (PostgreSQL: a transaction-scoped advisory lock keyed by the schema, so any number of API nodes
 * append in turn; SQLite: embedded mode's one process, whose Kysely connection runs one transaction
 * at a time), reads the next index and inserts, so indices are gap-free and unique, and the leaves
 * are committed before any index is returned. A batch's checkpoint is signed and stored in the same
 * transaction (one round of statements for many leaves and their receipts). Checkpoints published
 * on their own take the same lock, and only when larger than the last one: a published size never
 * goes backwards. A keyed leaf (an async job's digest) is added once, whoever asks again.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { isPostgres, sqliteConnectionOf } from './database.js';
import { assignIndices } from './log-indices.js';
import { ADVISORY_LOCK_CLASS } from './migrations.js';
import type { AppendOutcome, LogStore, NewLeaf, SealBatch, StoredCheckpoint, StoredLeaf } from './log-store.js';
import type { Database } from './schema.js';
import { SqliteLogAppender } from './sqlite-log-append.js';

/** Rows per INSERT: well under both engines' bound-parameter limits (5 per row). */
const INSERT_CHUNK = 500;

type Reader = Kysely<Database> | Transaction<Database>;

export class KyselyLogStore implements LogStore {
  /** SQLite's append through prepared statements (sqlite-log-append.ts); undefined on PostgreSQL. */
  readonly #sqlite: SqliteLogAppender | undefined;

  constructor(private readonly db: Kysely<Database>) {
    const connection = sqliteConnectionOf(db);
    this.#sqlite = connection && new SqliteLogAppender(db, connection);
  }

  private async lock(trx: Transaction<Database>): Promise<void> {
    if (!isPostgres(this.db)) return;
    await sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_CLASS}::int, hashtext(current_schema() || ':transparency-log'))`.execute(trx);
  }

  append(leaves: readonly NewLeaf[], seal?: SealBatch): Promise<AppendOutcome> {
    if (this.#sqlite) return this.#sqlite.append(leaves, seal);
    return this.db.transaction().execute(async (trx) => {
      await this.lock(trx);
      const row = await trx
        .selectFrom('log_leaves')
        .select((eb) => eb.fn.max('idx').as('last'))
        .executeTakeFirst();
      const first = row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
      // Keys already logged (read under the lock, so no other node adds one meanwhile), and keys
      // repeated within this batch, keep their first index.
      const { indices, fresh } = assignIndices(leaves, first, await this.keyed(trx, leaves));
      const now = Date.now();
      for (let at = 0; at < fresh.length; at += INSERT_CHUNK) {
        const values = fresh.slice(at, at + INSERT_CHUNK).map((l, i) => ({
          idx: first + at + i,
          leaf: l.text ?? l.leaf.toString('utf8'),
          leaf_hash: l.leafHash.toString('hex'),
          created_at: now,
          idempotency_key: l.key ?? null,
        }));
        await trx.insertInto('log_leaves').values(values).execute();
      }
      let checkpoint: StoredCheckpoint | undefined;
      if (seal && fresh.length > 0) {
        checkpoint = await seal({ first, added: fresh.map((l) => l.leafHash), read: (start, limit) => this.readLeaves(trx, start, limit) });
        // Larger than any stored checkpoint: none can cover leaves that did not exist until now.
        await trx
          .insertInto('log_checkpoints')
          .values({ size: checkpoint.size, root: checkpoint.root.toString('hex'), note: checkpoint.note, created_at: now })
          .execute();
      }
      return { indices, first, added: fresh.length, checkpoint };
    });
  }

  private async keyed(trx: Transaction<Database>, leaves: readonly NewLeaf[]): Promise<Map<string, number>> {
    const keys = [...new Set(leaves.flatMap((l) => (l.key === undefined ? [] : [l.key])))];
    const known = new Map<string, number>();
    for (let at = 0; at < keys.length; at += INSERT_CHUNK) {
      const rows = await trx
        .selectFrom('log_leaves')
        .select(['idx', 'idempotency_key'])
        .where('idempotency_key', 'in', keys.slice(at, at + INSERT_CHUNK))
        .execute();
      for (const r of rows) if (r.idempotency_key !== null) known.set(r.idempotency_key, Number(r.idx));
    }
    return known;
  }

  leavesFrom(start: number, limit: number): Promise<StoredLeaf[]> {
    return this.readLeaves(this.db, start, limit);
  }

  private async readLeaves(db: Reader, start: number, limit: number): Promise<StoredLeaf[]> {
    const rows = await db
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
