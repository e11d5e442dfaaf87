/**
 * The transparency log's append on SQLite (embedded mode) through statements prepared once: the
 * same transaction as KyselyLogStore.append (shared/store/kysely-log.ts), whose every batch Kysely
 * would build, compile and prepare anew, for leaves one request each (docs/decisions.md "Proof of
 * existence"). Leaves go INSERT_ROWS to a statement, the rest one by one: two statements prepared
 * once cost less than compiling and preparing one per batch size, and a run per leaf more.
 */
import type { Kysely } from 'kysely';
import type { SqliteConnection } from './sqlite-driver.js';
import type { AppendOutcome, NewLeaf, SealBatch, StoredCheckpoint, StoredLeaf } from './log-store.js';
import { assignIndices } from './log-indices.js';
import type { Database } from './schema.js';

type Statement = ReturnType<SqliteConnection['prepare']>;

interface LeafRow {
  idx: number | bigint;
  leaf: string;
  leaf_hash: string;
}

export class SqliteLogAppender {
  #statements: ReturnType<typeof prepare> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connection: SqliteConnection,
  ) {}

  /** Prepared on first use: after the migrations that made the tables. */
  get #s(): ReturnType<typeof prepare> {
    return (this.#statements ??= prepare(this.connection));
  }

  /**
   * Appends in one transaction, holding Kysely's connection so no other query of this process runs
   * in between. BEGIN IMMEDIATE takes the write lock first (another process waits busy_timeout),
   * so reading the next index and inserting cannot interleave with another writer.
   */
  append(leaves: readonly NewLeaf[], seal?: SealBatch): Promise<AppendOutcome> {
    return this.db.connection().execute(async () => {
      const s = this.#s;
      s.begin.run([]);
      try {
        const outcome = await this.#append(s, leaves, seal);
        s.commit.run([]);
        return outcome;
      } catch (err) {
        // SQLite may have rolled back already (an I/O error): the first error is the one to report.
        try {
          s.rollback.run([]);
        } catch {
          // no transaction left to roll back
        }
        throw err;
      }
    });
  }

  async #append(s: ReturnType<typeof prepare>, leaves: readonly NewLeaf[], seal: SealBatch | undefined): Promise<AppendOutcome> {
    const last = (s.last.all([])[0] as { last: number | bigint | null } | undefined)?.last;
    const first = last === null || last === undefined ? 0 : Number(last) + 1;
    // Keys already logged keep their first index (log-indices.ts).
    const known = new Map<string, number>();
    for (const l of leaves) {
      if (l.key === undefined || known.has(l.key)) continue;
      const row = s.keyed.all([l.key])[0] as { idx: number | bigint } | undefined;
      if (row) known.set(l.key, Number(row.idx));
    }
    const { indices, fresh } = assignIndices(leaves, first, known);
    const now = Date.now();
    insertLeaves(s, fresh, first, now);
    let checkpoint: StoredCheckpoint | undefined;
    if (seal && fresh.length > 0) {
      checkpoint = await seal({
        first,
        added: fresh.map((l) => l.leafHash),
        read: (start, limit) => Promise.resolve(readLeaves(s.read, start, limit)),
      });
      s.insertCheckpoint.run([checkpoint.size, checkpoint.root.toString('hex'), checkpoint.note, now]);
    }
    return { indices, first, added: fresh.length, checkpoint };
  }
}

/** Rows per multi-row INSERT: one statement run per this many leaves costs less than a run per leaf. */
const INSERT_ROWS = 16;
const LEAF_COLUMNS = '(idx, leaf, leaf_hash, created_at, idempotency_key)';

/** Inserts `leaves` at `first`, `first + 1`, …: INSERT_ROWS at a time, the rest one by one (both prepared once). */
function insertLeaves(s: ReturnType<typeof prepare>, leaves: readonly NewLeaf[], first: number, now: number): void {
  const row = (l: NewLeaf, at: number, params: unknown[]): void => {
    params.push(first + at, l.text ?? l.leaf.toString('utf8'), l.leafHash.toString('hex'), now, l.key ?? null);
  };
  let at = 0;
  for (; at + INSERT_ROWS <= leaves.length; at += INSERT_ROWS) {
    const params: unknown[] = [];
    for (let i = at; i < at + INSERT_ROWS; i++) row(leaves[i]!, i, params);
    s.insertLeaves.run(params);
  }
  for (; at < leaves.length; at++) {
    const params: unknown[] = [];
    row(leaves[at]!, at, params);
    s.insertLeaf.run(params);
  }
}

function prepare(connection: SqliteConnection) {
  const p = (sql: string): Statement => connection.prepare(sql);
  return {
    begin: p('BEGIN IMMEDIATE'),
    commit: p('COMMIT'),
    rollback: p('ROLLBACK'),
    last: p('SELECT max(idx) AS last FROM log_leaves'),
    keyed: p('SELECT idx FROM log_leaves WHERE idempotency_key = ?'),
    insertLeaf: p(`INSERT INTO log_leaves ${LEAF_COLUMNS} VALUES (?, ?, ?, ?, ?)`),
    insertLeaves: p(
      `INSERT INTO log_leaves ${LEAF_COLUMNS} VALUES ${Array.from({ length: INSERT_ROWS }, () => '(?, ?, ?, ?, ?)').join(', ')}`,
    ),
    insertCheckpoint: p('INSERT INTO log_checkpoints (size, root, note, created_at) VALUES (?, ?, ?, ?)'),
    read: p('SELECT idx, leaf, leaf_hash FROM log_leaves WHERE idx >= ? ORDER BY idx LIMIT ?'),
  };
}

function readLeaves(read: Statement, start: number, limit: number): StoredLeaf[] {
  return (read.all([start, limit]) as LeafRow[]).map((r) => ({
    index: Number(r.idx),
    leaf: Buffer.from(r.leaf, 'utf8'),
    leafHash: Buffer.from(r.leaf_hash, 'hex'),
  }));
}
