import type { RequestHandler } from 'express';
import type { Permission } from '../../shared/auth/principal.js';
import type { Principal } from '../../shared/auth/principal.js';
import { isServiceError, ServiceError } from '../../shared/errors.js';
import { countRefusal, type RefusalReason } from '../../shared/metrics/record.js';
import type { ApiDeps } from '../deps.js';
import { identifyCaller, requireCaller, requirePermission } from './authenticate.js';
import { clientOrigin } from './cors.js';
import { countRequest, type LimitClass } from './rate-limit.js';

type Res = Parameters<RequestHandler>[1];

export function principalOf(res: Res): Principal {
  const principal = res.locals.principal;
  if (!principal) throw new ServiceError('UNAUTHORIZED');
  return principal;
}

export interface CallerGuards {
  /**
   * Mounted once per generation, before its routes: identifies the caller when credentials are
   * presented and counts the request against the limits of `limitClassOf(path)`, so every
   * response to an identified caller (200, 400, 403, 404, 405, 429) carries X-RateLimit-* headers.
   * Bad credentials are remembered, not thrown: an unknown path stays a 404 whether or not a key
   * was sent, and routes throw them through `guard`.
   */
  identify: RequestHandler[];
  /** Per route: a caller is required (else 401), a client key's Origin checked, then the permission. */
  guard: (permission: Permission) => RequestHandler[];
}

export function callerGuards(
  deps: Pick<ApiDeps, 'authenticator' | 'limiter' | 'metrics' | 'store'>,
  generation: 'v1' | 'v2',
  limitClassOf: (path: string) => LimitClass,
): CallerGuards {
  const refused = (reason: RefusalReason): void => countRefusal(deps.metrics, reason);
  const identify = [
    identifyCaller({ authenticator: deps.authenticator, generation, store: deps.store }),
    countRequest(deps.limiter, limitClassOf, refused),
  ];
  const caller = countingRefusals(requireCaller(), 'auth', refused);
  const origin = countingRefusals(clientOrigin(), 'origin', refused);
  return { identify, guard: (permission) => [caller, origin, countingRefusals(requirePermission(permission), 'permission', refused)] };
}

/** A synchronous guard that throws to refuse: each refusal is counted under `reason` (sha224d_refusals_total). */
function countingRefusals(guard: RequestHandler, reason: RefusalReason, refused: (reason: RefusalReason) => void): RequestHandler {
  return function countedGuard(req, res, next) {
    try {
      return guard(req, res, next);
    } catch (err) {
      // A refusal of the caller (401/403), not a dependency's outage surfacing through the guard.
      if (isServiceError(err) && (err.status === 401 || err.status === 403)) refused(err.code === 'IP_NOT_ALLOWED' ? 'ip' : reason);
      throw err;
    }
  };
}

/**
 * A router-relative path as Express matches it (case-insensitive, trailing slash ignored), for
 * choosing a limit class before routing.
 */
export function routeKey(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '') || '/';
}
