/**
 * A resumable (tus 1.0) upload as the service keeps it between requests: how many bytes it holds,
 * where they are stored (when the record outlives the process: shared/uploads/store.ts), and the
 * SHA-224 state over exactly those bytes, so the digest is known at the last byte without reading
 * anything back (docs/decisions.md "Resumable uploads").
 */

/** One PATCH's bytes, stored as one blob-store object. */
export interface UploadSegment {
  key: string;
  size: number;
}

export interface ResumableRecord {
  id: string;
  accountId: string;
  /** Upload-Length; null while deferred (Upload-Defer-Length: 1). */
  length: number | null;
  /**
   * Bytes received and hashed: the sum of `segments`' sizes where bytes are stored; in embedded
   * mode, where they are not (nothing would read them), `segments` stays empty.
   */
  offset: number;
  /** The plan's limit when the upload was created: Upload-Length and every byte are held to it. */
  maxBytes: number;
  /** Upload-Metadata as the client sent it, echoed by HEAD. */
  rawMetadata: string | undefined;
  /** The `filename` (or `name`) metadata value, decoded. */
  filename: string;
  /** The `sha224` metadata value: the digest the finished bytes must have (verify on ingest). */
  expectedSha224: string | undefined;
  /** Epoch ms. */
  createdAt: number;
  expiresAt: number;
  segments: UploadSegment[];
  /** The serialised hash state over the first `hashOffset` bytes (shared/uploads/hash-state.ts), base64. */
  hashState: string;
  /**
   * The bytes `hashState` covers, at a segment boundary; absent: `offset`. Below `offset` while the
   * node that took every byte so far hashes them in its memory with node:crypto (shared/uploads/live-hashes.ts);
   * any other node continues from `hashState` over the segments past it.
   */
  hashOffset?: number;
  /** What wrote `hashState`; a state of any other tag is rebuilt from the stored bytes, never loaded. */
  hashTag: string;
  /** Set once the last byte arrived: the `file` job that carries its digest. */
  jobId?: string;
}

export function isExpired(record: ResumableRecord, now: number): boolean {
  return record.jobId === undefined && now >= record.expiresAt;
}

/** Parsed from JSON read back from a store: only the shape is checked, the values were written by this service. */
export function parseRecord(text: string): ResumableRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<ResumableRecord> | null;
    if (value === null || typeof value !== 'object' || typeof value.id !== 'string' || !Array.isArray(value.segments)) return undefined;
    return value as ResumableRecord;
  } catch {
    return undefined;
  }
}
