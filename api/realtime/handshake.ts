/**
 * Who may open a realtime connection: the checks of the HTTP guard (api/middleware/guards.ts), run once
 * at the handshake instead of per request. Shared by /v2/ws and socket.io.
 */
import type { IncomingMessage } from 'node:http';
import { principalCan, type Permission, type Principal } from '../../shared/auth/principal.js';
import { isServiceError, ServiceError } from '../../shared/errors.js';
import { countRefusal, type RefusalReason } from '../../shared/metrics/record.js';
import { isHostAllowed } from '../../shared/keys/domains.js';
import type { ApiDeps } from '../deps.js';
import { clientAddress, compileTrust, type TrustFn } from '../http/client-address.js';
import { originHost } from '../middleware/cors.js';
import { assertAddressAllowed } from '../middleware/ip-allowlist.js';
import type { ConnectionLease, ConnectionRegistry } from './connection-limit.js';

export interface Handshake {
  /** Every credential presented (docs/api.md "Authentication": the api_key query parameter). */
  credentials: string[];
  origin: string | undefined;
  /** The client's address (api/http/client-address.ts), for the IP allow-lists. */
  address: string | undefined;
}

/**
 * The principal, or UNAUTHORIZED (no, conflicting or bad key), EXPIRED_KEY, IP_NOT_ALLOWED (an address
 * outside the key's or account's allow-list), or FORBIDDEN (the key
 * has none of `anyOf`, or is a client key used from an Origin it does not allow).
 */
export async function authenticateHandshake(
  deps: Pick<ApiDeps, 'authenticator' | 'metrics' | 'store'>,
  handshake: Handshake,
  anyOf: readonly Permission[],
): Promise<Principal> {
  const refuse = (reason: RefusalReason, err: ServiceError): never => {
    countRefusal(deps.metrics, reason);
    throw err;
  };
  const presented = [...new Set(handshake.credentials.filter((c) => c !== ''))];
  const credential = presented[0];
  if (credential === undefined)
    refuse('auth', new ServiceError('UNAUTHORIZED', { details: 'no API key presented; pass the api_key query parameter' }));
  if (presented.length > 1) refuse('auth', new ServiceError('UNAUTHORIZED', { details: 'conflicting credentials presented' }));
  let principal: Principal;
  try {
    principal = await deps.authenticator.authenticate(credential!, 'query');
  } catch (err) {
    // A store outage is not a refusal of the caller.
    if (isServiceError(err) && (err.code === 'UNAUTHORIZED' || err.code === 'EXPIRED_KEY')) countRefusal(deps.metrics, 'auth');
    throw err;
  }
  try {
    await assertAddressAllowed(deps.store, principal, handshake.address);
  } catch (err) {
    if (isServiceError(err) && err.code === 'IP_NOT_ALLOWED') countRefusal(deps.metrics, 'ip');
    throw err;
  }
  if (!anyOf.some((permission) => principalCan(principal, permission))) {
    refuse('permission', new ServiceError('FORBIDDEN', { details: `this credential lacks the ${anyOf.join(' or ')} permission` }));
  }
  if (principal.keyType === 'client') {
    const host = handshake.origin === undefined ? undefined : originHost(handshake.origin);
    if (host === undefined || !isHostAllowed(principal.allowedDomains, host)) {
      refuse('origin', new ServiceError('FORBIDDEN', { details: 'client key used from a domain it does not allow' }));
    }
  }
  return principal;
}

/** A connection slot of the principal's plan, or 429 TOO_MANY_CONNECTIONS. */
export async function admitConnection(
  deps: Pick<ApiDeps, 'catalog'>,
  registry: ConnectionRegistry,
  principal: Principal,
): Promise<ConnectionLease> {
  const limit = deps.catalog.plans[principal.plan].wsConnections;
  const lease = await registry.acquire(principal.accountId, limit);
  if (lease === undefined) {
    throw new ServiceError('TOO_MANY_CONNECTIONS', {
      details: `the ${principal.plan} plan allows ${limit ?? 'unlimited'} concurrent WebSocket connections; close one before opening another`,
    });
  }
  return lease;
}

const trustFns = new Map<string, TrustFn>();

/** The address a handshake came from, read through TRUST_PROXY as Express reads `req.ip`. */
export function handshakeAddress(deps: Pick<ApiDeps, 'config'>, req: IncomingMessage): string | undefined {
  const setting = deps.config.TRUST_PROXY;
  let trust = trustFns.get(setting);
  if (!trust) trustFns.set(setting, (trust = compileTrust(setting)));
  return clientAddress(req, trust);
}
