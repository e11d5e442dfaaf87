import type { RequestHandler } from 'express';
import { ServiceError } from '../../shared/errors.js';
import { rateLimitError, rateLimitHeaders } from '../../shared/limits/headers.js';
import type { Generation, RequestLimiter } from '../../shared/limits/limiter.js';

/**
 * Count the request against its account's rate window and daily quota (issue 5); set the
 * X-RateLimit-* headers on every authenticated response; refuse with 429 when over.
 */
export function rateLimit(limiter: RequestLimiter, generation: Generation): RequestHandler {
  return async function limitRequest(_req, res, next) {
    const principal = res.locals.principal;
    if (!principal) throw new ServiceError('UNAUTHORIZED');
    const decision = await limiter.consume({
      accountId: principal.accountId,
      plan: principal.plan,
      keyType: principal.keyType,
      generation,
      sandbox: res.locals.sandbox === true,
    });
    res.set(rateLimitHeaders(decision, generation));
    if (!decision.allowed) throw rateLimitError(decision);
    next();
  };
}
