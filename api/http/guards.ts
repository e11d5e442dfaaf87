import express, { type RequestHandler } from 'express';
import type { Permission } from '../../shared/auth/principal.js';
import type { Principal } from '../../shared/auth/principal.js';
import { ServiceError } from '../../shared/errors.js';
import type { Generation } from '../../shared/limits/limiter.js';
import type { ApiDeps } from '../deps.js';
import { authenticate, requirePermission } from '../middleware/authenticate.js';
import { clientOrigin } from '../middleware/cors.js';
import { rateLimit } from '../middleware/rate-limit.js';

type Res = Parameters<RequestHandler>[1];

export function principalOf(res: Res): Principal {
  const principal = res.locals.principal;
  if (!principal) throw new ServiceError('UNAUTHORIZED');
  return principal;
}

/**
 * The middleware chain every endpoint of a generation runs before its handler: authenticate,
 * check a client key's Origin, check the permission, count it against the limits of `limitAs`
 * (v1 Set A, v1 Set B or v2). Applied per route, so an unknown path is a 404 whether or not a
 * key was sent.
 */
export function guardFactory(deps: Pick<ApiDeps, 'authenticator' | 'limiter'>, generation: 'v1' | 'v2') {
  const auth = authenticate({ authenticator: deps.authenticator, generation });
  const origin = clientOrigin();
  const limits = new Map<Generation, RequestHandler>();
  return (permission: Permission, limitAs: Generation): RequestHandler[] => {
    let limit = limits.get(limitAs);
    if (!limit) limits.set(limitAs, (limit = rateLimit(deps.limiter, limitAs)));
    return [auth, origin, requirePermission(permission), limit];
  };
}

/** JSON bodies, whatever Content-Type a client sent (these endpoints only speak JSON). */
export function jsonBody(limitBytes: number): RequestHandler {
  return express.json({ limit: limitBytes, type: () => true, strict: true });
}

/** 405 with Allow for a known path requested with another method. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  return function wrongMethod(req, res) {
    res.setHeader('Allow', allowed.join(', '));
    throw new ServiceError('METHOD_NOT_ALLOWED', { details: `${req.method} is not allowed; use ${allowed.join(' or ')}` });
  };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** `Idempotency-Key` (issue 3 §6): printable ASCII, at most 255 characters. */
export function idempotencyKeyOf(req: Parameters<RequestHandler>[0]): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ServiceError('INVALID_INPUT', { message: 'Idempotency-Key must be 1-255 printable ASCII characters', details: 'header: idempotency-key' });
  }
  return value;
}
