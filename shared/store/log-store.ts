// Node's Buffer: this file's types reach the browser builds' typechecks (through shared/store/types.ts), which load no Node types by default.
/// <reference types="node" />
/**
 * The transparency log's store contract (docs/proving.md): the rows it keeps, the leaves it is
 * given, and what an append answers. Implemented by kysely-log.ts (both engines) and, for SQLite's
 * appends, sqlite-log-append.ts.
 */
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

/** A leaf to append; `key` (an async job's id) makes it idempotent: a key already logged adds nothing. */
export interface NewLeaf {
  readonly leaf: Buffer;
  /** The same bytes as UTF-8 text, when the caller has them: SQLite stores the leaf as text. */
  readonly text?: string | undefined;
  readonly leafHash: Buffer;
  readonly key?: string | undefined;
}

/**
 * Signs the checkpoint of the tree with the batch's new leaves, inside the appending transaction:
 * `first` is the index of the first new leaf, `added` their hashes in order, and `read` reads
 * committed leaves in that same transaction (a node that missed other nodes' leaves catches up).
 */
export type SealBatch = (batch: {
  readonly first: number;
  readonly added: readonly Buffer[];
  readonly read: (start: number, limit: number) => Promise<StoredLeaf[]>;
}) => Promise<StoredCheckpoint>;

export interface AppendOutcome {
  /** Each input leaf's index; for a key already logged, the earlier leaf's. */
  readonly indices: readonly number[];
  /** The first index this call added (the log's size before it). */
  readonly first: number;
  /** How many leaves this call added: indices first … first + added − 1. */
  readonly added: number;
  /** The checkpoint stored with them (from `seal`; none when nothing was added). */
  readonly checkpoint: StoredCheckpoint | undefined;
}

export interface LogStore {
  /**
   * Appends the leaves in order, in one transaction, with the checkpoint `seal` signs for them;
   * resolves once committed.
   */
  append(leaves: readonly NewLeaf[], seal?: SealBatch): Promise<AppendOutcome>;
  /** Leaves from `start` on, in index order, at most `limit`. */
  leavesFrom(start: number, limit: number): Promise<StoredLeaf[]>;
  latestCheckpoint(): Promise<StoredCheckpoint | undefined>;
  /**
   * Stores `checkpoint` if it is larger than the latest; resolves the latest afterwards (this one,
   * or the larger one another node published first).
   */
  publishCheckpoint(checkpoint: StoredCheckpoint): Promise<StoredCheckpoint>;
}
