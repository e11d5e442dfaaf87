import type { ApiDeps } from '../deps.js';
import { PROBE_TIMEOUT_MS, probeDependencies } from '../readiness.js';

/** Set B status `status` (docs/api.md "v1 Set B" status). */
export type ServiceStatus = 'operational' | 'degraded';

/**
 * Set B status `status`: 'operational' when the store, the queue and the blob store answer a
 * ping in time, otherwise 'degraded' (the API still answers, so some operations may work).
 * 'maintenance' is never reported: the service has no maintenance mode.
 */
export async function serviceStatus(
  deps: Pick<ApiDeps, 'store' | 'queue' | 'blobs'>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ServiceStatus> {
  const answers = await probeDependencies(deps, timeoutMs);
  return Object.values(answers).every(Boolean) ? 'operational' : 'degraded';
}
