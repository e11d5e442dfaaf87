/**
 * Frees the request-body chunks that node:http hands over once they are read. Each chunk is a
 * small object in V8's young generation holding up to 64 KiB outside the heap; nothing keeps it
 * after it is hashed or written, but its memory returns only at the next minor collection, and
 * with the 32 MiB young generation of the start scripts that comes after about 32 MiB of
 * received bytes (docs/decisions.md "Speed"). A minor collection after every BYTES_PER_COLLECTION
 * bytes received, by all bodies together, bounds that garbage instead.
 *
 * The collector is reached through a fresh context created after `--expose-gc` is set, so no
 * global `gc` appears in the service's own context. Where the runtime refuses, nothing is done.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The received bytes between two collections (docs/decisions.md "Speed"). */
export const BYTES_PER_COLLECTION = 4 * 1024 * 1024;

type MinorCollection = (options: { type: 'minor' }) => void;

let collect: MinorCollection | null | undefined;
let sinceLast = 0;

function collector(): MinorCollection | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    const found: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    collect = typeof found === 'function' ? (found as MinorCollection) : null;
  } catch {
    collect = null;
  }
  return collect;
}

/** Counts `bytes` of request body read; past the bound, collects the young generation. */
export function bodyBytesRead(bytes: number): void {
  sinceLast += bytes;
  if (sinceLast < BYTES_PER_COLLECTION) return;
  sinceLast = 0;
  collector()?.({ type: 'minor' });
}
