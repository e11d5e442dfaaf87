/**
 * Who may open a realtime connection: the checks of the HTTP guard (api/http/guards.ts), run once
 * at the handshake instead of per request. Shared by /v2/ws and socket.io.
 */
import { principalCan, type Permission, type Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import { isHostAllowed } from '../../shared/keys/domains.js';
import type { ApiDeps } from '../deps.js';
import { originHost } from '../middleware/cors.js';
import type { ConnectionLease, ConnectionRegistry } from './connection-limit.js';

export interface Handshake {
  /** Every credential presented (SPEC "v2 WebSocket": the api_key query parameter). */
  credentials: string[];
  origin: string | undefined;
}

/**
 * The principal, or UNAUTHORIZED (no, conflicting or bad key), EXPIRED_KEY, or FORBIDDEN (the key
 * has none of `anyOf`, or is a client key used from an Origin it does not allow).
 */
export async function authenticateHandshake(deps: Pick<ApiDeps, 'authenticator'>, handshake: Handshake, anyOf: readonly Permission[]): Promise<Principal> {
  const presented = [...new Set(handshake.credentials.filter((c) => c !== ''))];
  const credential = presented[0];
  if (credential === undefined) throw new ServiceError('UNAUTHORIZED', { details: 'no API key presented; pass the api_key query parameter' });
  if (presented.length > 1) throw new ServiceError('UNAUTHORIZED', { details: 'conflicting credentials presented' });
  const principal = await deps.authenticator.authenticate(credential, 'query');
  if (!anyOf.some((permission) => principalCan(principal, permission))) {
    throw new ServiceError('FORBIDDEN', { details: `this credential lacks the ${anyOf.join(' or ')} permission` });
  }
  if (principal.keyType === 'client') {
    const host = handshake.origin === undefined ? undefined : originHost(handshake.origin);
    if (host === undefined || !isHostAllowed(principal.allowedDomains, host)) {
      throw new ServiceError('FORBIDDEN', { details: 'client key used from a domain it does not allow' });
    }
  }
  return principal;
}

/** A connection slot of the principal's plan, or 429 TOO_MANY_CONNECTIONS. */
export async function admitConnection(deps: Pick<ApiDeps, 'catalog'>, registry: ConnectionRegistry, principal: Principal): Promise<ConnectionLease> {
  const limit = deps.catalog.plans[principal.plan].wsConnections;
  const lease = await registry.acquire(principal.accountId, limit);
  if (lease === undefined) {
    throw new ServiceError('TOO_MANY_CONNECTIONS', {
      details: `the ${principal.plan} plan allows ${limit ?? 'unlimited'} concurrent WebSocket connections; close one before opening another`,
    });
  }
  return lease;
}
