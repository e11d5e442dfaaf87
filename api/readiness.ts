import type { ApiDeps } from './deps.js';

/** A dependency that has not answered its ping in this long counts as down. */
export const PROBE_TIMEOUT_MS = 1000;

export type DependencyName = 'store' | 'queue' | 'blobs';

/**
 * Ping the store, the queue and the blob store at once, each bounded by `timeoutMs`: the one
 * readiness check behind /readyz and v1 Set B status.
 */
export async function probeDependencies(deps: Pick<ApiDeps, DependencyName>, timeoutMs = PROBE_TIMEOUT_MS): Promise<Record<DependencyName, boolean>> {
  const [store, queue, blobs] = await Promise.all([answersWithin(() => deps.store.ping(), timeoutMs), answersWithin(() => deps.queue.ping(), timeoutMs), answersWithin(() => deps.blobs.ping(), timeoutMs)]);
  return { store, queue, blobs };
}

async function answersWithin(check: () => Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(check).then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
