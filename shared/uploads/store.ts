import type { ResumableRecord } from './record.js';

/**
 * Where resumable-upload records and their write locks live: this process's memory (embedded
 * mode) or Redis (distributed mode: any API node serves any request of an upload, no sticky
 * sessions). A PATCH or DELETE holds the upload's lock; `commit` writes a record only while the
 * lock is still the caller's (a node that stalled past UPLOAD_LOCK_MS and lost it to another is
 * fenced off, and drops its segment).
 */
export interface ResumableStore {
  /**
   * Whether a record outlives this process: in Redis another node or a restart continues the
   * upload, so its bytes must be stored for whoever continues it without this node's hash; in
   * embedded mode's memory the record dies with the process, as the hash does, and nothing would
   * ever read them (docs/decisions.md "Resumable uploads").
   */
  readonly outlivesProcess: boolean;
  /** Stores a new record; false if the id exists. */
  create(record: ResumableRecord, keepUntil: number): Promise<boolean>;
  get(id: string): Promise<ResumableRecord | undefined>;
  /** The lock's token, or undefined while another request holds it. */
  lock(id: string): Promise<string | undefined>;
  /** Extends a held lock; false if it was lost. */
  renew(id: string, token: string): Promise<boolean>;
  release(id: string, token: string): Promise<void>;
  /** Writes `record` if `token` still holds its lock; false otherwise. `keepUntil`: epoch ms the record may be forgotten. */
  commit(record: ResumableRecord, token: string, keepUntil: number): Promise<boolean>;
  /** Forgets a record (termination), if `token` still holds its lock. */
  remove(id: string, token: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * How long a record outlives its expiry: an expired upload answers 410 (and a finished one keeps
 * answering HEAD) for this long, then 404 like an unknown id.
 */
export const TOMBSTONE_MS = 24 * 3600 * 1000;
