/**
 * `?webhook_endpoint_id=` on an async /v2 submission (docs/webhooks.md "Naming an endpoint at
 * submission"): checked before any body is read, so a refused request stores no upload.
 */
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { WebhookTarget } from '../../shared/queue/types.js';
import type { ApiDeps } from '../deps.js';

/**
 * The job's webhook target: the named endpoint, or every endpoint whose filter takes the event.
 * Another account's endpoint is refused exactly as an unknown one, so ids cannot be probed.
 */
export async function webhookTargetOf(
  deps: Pick<ApiDeps, 'webhooks'>,
  principal: Principal,
  query: { async: boolean; webhook_endpoint_id?: string | undefined },
): Promise<WebhookTarget> {
  const named = query.webhook_endpoint_id;
  if (named === undefined) return {};
  if (!query.async) throw new ServiceError('INVALID_INPUT', { details: 'webhook_endpoint_id applies only with async=true' });
  if (deps.webhooks === undefined)
    throw new ServiceError('SERVICE_UNAVAILABLE', { message: 'Webhooks are off on this deployment (SECRETS_KEY is not set)' });
  const endpoint = await deps.webhooks.store.endpoint(named);
  if (endpoint === undefined || endpoint.accountId !== principal.accountId)
    throw new ServiceError('INVALID_INPUT', { details: 'webhook_endpoint_id names no webhook endpoint of this account' });
  if (endpoint.disabledAt !== undefined)
    throw new ServiceError('INVALID_INPUT', { details: 'webhook_endpoint_id names a disabled webhook endpoint; re-enable it first' });
  return { endpointId: endpoint.id };
}
