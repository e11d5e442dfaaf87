/** Tables of the transparency log (migration 0006_transparency_log; shared/store/kysely-log.ts). */
import type { ColumnType } from 'kysely';

/** bigint columns: PostgreSQL's driver answers them as strings, SQLite as numbers; written as numbers. */
type BigintColumn = ColumnType<number | string, number, number>;

export interface LogLeavesTable {
  /** The leaf's index: gap-free from 0, assigned under the sequencer's lock. */
  idx: BigintColumn;
  /** The canonical leaf record (shared/proof/leaf.ts): ASCII text. */
  leaf: string;
  /** SHA-256(0x00 ‖ leaf), lowercase hex. */
  leaf_hash: string;
  created_at: BigintColumn;
  /** Migration 0008: set for a job's leaf (`job:<id>`), so reading the job twice logs it once. */
  idempotency_key: ColumnType<string | null, string | null | undefined, never>;
}

export interface LogCheckpointsTable {
  /** Tree size; each stored checkpoint is larger than every one before it. */
  size: BigintColumn;
  /** Root hash, lowercase hex. */
  root: string;
  /** The signed note as served. */
  note: string;
  created_at: BigintColumn;
}

export interface LogTables {
  log_leaves: LogLeavesTable;
  log_checkpoints: LogCheckpointsTable;
}
