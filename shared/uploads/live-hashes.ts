/**
 * The fast path of a resumable upload's digest (docs/decisions.md "Resumable uploads"): while one
 * node takes every PATCH of an upload from its first byte, it hashes them with node:crypto (SHA-NI
 * where the CPU has it, several times hash-wasm's speed) and keeps that hash here, in memory,
 * between PATCHes. node:crypto cannot save its state, so the record's hash-wasm state stays at the
 * last offset hash-wasm reached (`hashOffset`); a PATCH on another node, or after this node
 * restarted, continues from that state over the stored segments past it, once.
 */
import { createHash, type Hash } from 'node:crypto';
import type { ResumableHash } from './hash-state.js';

/** A node:crypto hash: fast, and unsaveable (`save()` is undefined). */
export interface LiveHash extends ResumableHash {
  readonly live: Hash;
}

function wrap(hash: Hash): LiveHash {
  return {
    live: hash,
    update: (chunk) => {
      hash.update(chunk);
    },
    save: () => undefined,
    digestHex: () => hash.digest('hex'),
  };
}

export function isLive(hash: ResumableHash): hash is LiveHash {
  return 'live' in hash;
}

/**
 * Hashes by upload id, each over exactly the upload's first `offset` bytes as committed by this
 * node. Of the uploads whose bytes are stored, at most `capacity` are kept (the least recently
 * used go first; an upload whose hash is gone here continues from its saved state over those
 * bytes), each a few hundred bytes. An upload whose bytes are not stored (embedded mode: its
 * record dies with this process too) has no other copy of its digest: it is kept, whatever the
 * capacity, until its record may be forgotten (`until`), or until it finishes or is terminated.
 */
export class LiveHashes {
  private readonly hashes = new Map<string, { offset: number; hash: Hash }>();
  /** The sole copies, in the order they were last kept. */
  private readonly sole = new Map<string, { offset: number; hash: Hash; until: number }>();

  constructor(
    private readonly capacity = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A copy of the hash over `offset` bytes of upload `id` (the kept one stays valid should this
   * PATCH fail), a fresh one at offset 0, or undefined when this node does not hold that state.
   */
  resume(id: string, offset: number): LiveHash | undefined {
    if (offset === 0) return wrap(createHash('sha224'));
    const entry = this.hashes.get(id) ?? this.sole.get(id);
    if (entry === undefined || entry.offset !== offset) return undefined;
    return wrap(entry.hash.copy());
  }

  /**
   * `hash` now covers the upload's first `offset` bytes, committed. `soleUntil`: those bytes are
   * not stored, so this hash is their only trace; kept until that epoch ms.
   */
  keep(id: string, offset: number, hash: LiveHash, soleUntil?: number): void {
    this.drop(id);
    if (soleUntil !== undefined) {
      this.sole.set(id, { offset, hash: hash.live, until: soleUntil });
      this.forgetPast();
      return;
    }
    this.hashes.set(id, { offset, hash: hash.live });
    if (this.hashes.size > this.capacity) {
      const oldest = this.hashes.keys().next();
      if (oldest.done !== true) this.hashes.delete(oldest.value);
    }
  }

  drop(id: string): void {
    this.hashes.delete(id);
    this.sole.delete(id);
  }

  get size(): number {
    return this.hashes.size + this.sole.size;
  }

  /**
   * Sole copies whose record may be forgotten: those of uploads abandoned mid-way. Walked from the
   * least recently kept, the first one still due ends the walk: each `until` is a fixed time after
   * its upload's creation, so a copy waits past its own at most that long.
   */
  private forgetPast(): void {
    const now = this.now();
    for (const [id, entry] of this.sole) {
      if (entry.until > now) return;
      this.sole.delete(id);
    }
  }
}
