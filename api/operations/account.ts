/** The account operations of both generations: usage (v1 Set A) and status (v1 Set B). */
import type { Principal } from '../../shared/auth/principal.js';
import type { UsageSnapshot } from '../../shared/limits/types.js';
import type { ApiDeps } from '../deps.js';
import { serviceStatus, type ServiceStatus } from './service-status.js';

/** Sandbox requests are counted apart (docs/api.md "Overview"), so they read the sandbox's figures. */
export function usageOf(deps: Pick<ApiDeps, 'limiter'>, principal: Principal, sandbox: boolean): Promise<UsageSnapshot> {
  return deps.limiter.usage(principal.accountId, principal.plan, sandbox, principal.keyType);
}

export async function statusOf(
  deps: Pick<ApiDeps, 'limiter' | 'store' | 'queue' | 'blobs'>,
  principal: Principal,
  sandbox: boolean,
): Promise<{ status: ServiceStatus; usage: UsageSnapshot }> {
  const [status, usage] = await Promise.all([serviceStatus(deps), usageOf(deps, principal, sandbox)]);
  return { status, usage };
}
