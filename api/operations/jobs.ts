import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { JobRecord } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';

/** A job of the caller's account; another account's job is reported as absent, so ids cannot be probed. */
export async function jobOf(deps: Pick<ApiDeps, 'queue'>, principal: Principal, id: string): Promise<JobRecord> {
  const record = await deps.queue.get(id);
  if (!record || record.accountId !== principal.accountId) throw new ServiceError('NOT_FOUND', { details: 'no such job' });
  return record;
}
