import type { ApiDeps } from '../deps.js';
import type { ServiceStatus } from './render.js';

/** A dependency that has not answered in this long counts as down for Set B status. */
export const STATUS_CHECK_TIMEOUT_MS = 1000;

/**
 * Set B status `status`: 'operational' when the store, the queue and the blob store answer a
 * ping within STATUS_CHECK_TIMEOUT_MS, otherwise 'degraded' (the API still answers, so some
 * operations may work). 'maintenance' is never reported: the service has no maintenance mode.
 */
export async function serviceStatus(deps: Pick<ApiDeps, 'store' | 'queue' | 'blobs'>, timeoutMs = STATUS_CHECK_TIMEOUT_MS): Promise<ServiceStatus> {
  const checks = [() => deps.store.ping(), () => deps.queue.ping(), () => deps.blobs.ping()];
  const answers = await Promise.all(checks.map((check) => answersWithin(check, timeoutMs)));
  return answers.every(Boolean) ? 'operational' : 'degraded';
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
