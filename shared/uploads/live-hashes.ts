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
 * node. At most `capacity` are kept (the least recently used go first; an upload whose hash is
 * gone here continues from its saved state), each a few hundred bytes.
 */
export class LiveHashes {
  private readonly hashes = new Map<string, { offset: number; hash: Hash }>();

  constructor(private readonly capacity = 10_000) {}

  /**
   * A copy of the hash over `offset` bytes of upload `id` (the kept one stays valid should this
   * PATCH fail), a fresh one at offset 0, or undefined when this node does not hold that state.
   */
  resume(id: string, offset: number): LiveHash | undefined {
    if (offset === 0) return wrap(createHash('sha224'));
    const entry = this.hashes.get(id);
    if (entry === undefined || entry.offset !== offset) return undefined;
    return wrap(entry.hash.copy());
  }

  /** `hash` now covers the upload's first `offset` bytes, committed. */
  keep(id: string, offset: number, hash: LiveHash): void {
    this.hashes.delete(id);
    this.hashes.set(id, { offset, hash: hash.live });
    if (this.hashes.size > this.capacity) {
      const oldest = this.hashes.keys().next();
      if (oldest.done !== true) this.hashes.delete(oldest.value);
    }
  }

  drop(id: string): void {
    this.hashes.delete(id);
  }

  get size(): number {
    return this.hashes.size;
  }
}
