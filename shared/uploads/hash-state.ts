/**
 * SHA-224 whose state survives the process: hash-wasm's hasher saves and loads its internal state
 * (116 bytes), so each PATCH continues the digest where the previous one, on any node, stopped,
 * and the digest is known at the last byte without reading the upload back.
 *
 * The state carries no algorithm of its own (a SHA-256 state loads into a SHA-224 hasher without
 * complaint), so it is stored with HASH_TAG and any other tag, a wrong length or a missing state
 * is rebuilt by hashing the stored bytes again, never trusted.
 */
import type { Readable } from 'node:stream';
import type * as HashWasm from 'hash-wasm';
import type { IHasher } from 'hash-wasm';

/** What wrote a saved state: algorithm, library and state format. */
export const HASH_TAG = 'sha224/hash-wasm-4/116';
const STATE_BYTES = 116;

export interface ResumableHash {
  update(chunk: Uint8Array): void;
  /** The state over every byte given so far, base64; undefined for a hash that lives in one process only (shared/uploads/live-hashes.ts). */
  save(): string | undefined;
  digestHex(): string;
}

/** A hash-wasm hash: its state can always be saved. */
export interface SavableHash extends ResumableHash {
  save(): string;
}

let hashWasm: Promise<typeof HashWasm> | undefined;

/**
 * hash-wasm, imported with the first resumable upload: its 280 kB module (the WebAssembly inlined)
 * was read, scanned for its exports and compiled by every API node before its first request
 * (docs/decisions.md "Speed").
 */
async function createSHA224(): Promise<IHasher> {
  hashWasm ??= import('hash-wasm');
  return (await hashWasm).createSHA224();
}

function wrap(hasher: IHasher): SavableHash {
  return {
    update: (chunk) => {
      hasher.update(chunk);
    },
    save: () => Buffer.from(hasher.save()).toString('base64'),
    digestHex: () => hasher.digest('hex'),
  };
}

export async function freshHash(): Promise<SavableHash> {
  const hasher = await createSHA224();
  hasher.init();
  return wrap(hasher);
}

/** The hash continued from a saved state, or undefined when the state cannot be trusted. */
export async function resumeHash(state: string | undefined, tag: string | undefined): Promise<SavableHash | undefined> {
  if (state === undefined || tag !== HASH_TAG) return undefined;
  const bytes = Buffer.from(state, 'base64');
  if (bytes.length !== STATE_BYTES) return undefined;
  const hasher = await createSHA224();
  try {
    hasher.load(bytes);
  } catch {
    return undefined;
  }
  return wrap(hasher);
}

/** A hash rebuilt over stored bytes, read in order (continuing `from` when given): where the saved state was lost, unrecognised or behind. */
export async function rehash(sources: AsyncIterable<Readable>, from?: SavableHash): Promise<{ hash: SavableHash; size: number }> {
  const hash = from ?? (await freshHash());
  let size = 0;
  for await (const source of sources) {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
  }
  return { hash, size };
}
