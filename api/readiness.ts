import { answersWithin, PROBE_TIMEOUT_MS } from '../shared/probe.js';
import type { ApiDeps } from './deps.js';

export { PROBE_TIMEOUT_MS } from '../shared/probe.js';

export type DependencyName = 'store' | 'queue' | 'blobs';

/**
 * Ping the store, the queue and the blob store at once, each bounded by `timeoutMs`: the one
 * readiness check behind /readyz, v1 Set B status and sha224d_dependency_up.
 */
export async function probeDependencies(
  deps: Pick<ApiDeps, DependencyName>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Record<DependencyName, boolean>> {
  const [store, queue, blobs] = await Promise.all([
    answersWithin(() => deps.store.ping(), timeoutMs),
    answersWithin(() => deps.queue.ping(), timeoutMs),
    answersWithin(() => deps.blobs.ping(), timeoutMs),
  ]);
  return { store, queue, blobs };
}
