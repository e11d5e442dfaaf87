/**
 * Where a batch of leaves goes in the log: the indices the sequencer hands out, shared by both
 * appenders (kysely-log.ts, sqlite-log-append.ts). A key already logged, or repeated within the
 * batch, keeps its first index and adds no leaf (the job id is an async job's idempotency key).
 */
import type { NewLeaf } from './log-store.js';

/**
 * `first` is the next free index; `known` maps each key already in the log to its index (read
 * under the sequencer's lock) and gains the batch's own keys. Returns each leaf's index, in order,
 * and the leaves to insert at `first`, `first + 1`, ….
 */
export function assignIndices(
  leaves: readonly NewLeaf[],
  first: number,
  known: Map<string, number>,
): { indices: number[]; fresh: NewLeaf[] } {
  const indices: number[] = [];
  const fresh: NewLeaf[] = [];
  for (const l of leaves) {
    const earlier = l.key === undefined ? undefined : known.get(l.key);
    if (earlier !== undefined) {
      indices.push(earlier);
      continue;
    }
    const index = first + fresh.length;
    if (l.key !== undefined) known.set(l.key, index);
    indices.push(index);
    fresh.push(l);
  }
  return { indices, fresh };
}
