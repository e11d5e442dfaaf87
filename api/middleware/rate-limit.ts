import type { RequestHandler } from 'express';
import { usageCredential } from '../../shared/auth/principal.js';
import { rateLimitError, rateLimitHeaders } from '../../shared/limits/headers.js';
import type { Generation, LimitDecision, LimitRequest, RequestLimiter } from '../../shared/limits/limiter.js';

/** What a path is counted against: its generation's rate window, and the daily quota unless `outsideQuota`. */
export interface LimitClass {
  generation: Generation;
  /** Reading usage: never refused by the daily quota nor counted in it (LimitRequest.outsideQuota). */
  outsideQuota?: boolean;
}

/**
 * Count an identified caller's request against its account's rate window and daily quota
 * (docs/limits.md); set the X-RateLimit-* headers on every response to it; refuse with 429 when
 * over. Anonymous requests (no valid credential) count nowhere and carry no such headers: there is
 * no account whose window they could describe (docs/limits.md "Headers and errors").
 */
export function countRequest(
  limiter: RequestLimiter,
  limitClassOf: (path: string) => LimitClass,
  refused: (reason: 'rate' | 'quota') => void = () => undefined,
): RequestHandler {
  return function limitRequest(req, res, next) {
    const principal = res.locals.principal;
    if (!principal) return next();
    const { generation, outsideQuota } = limitClassOf(req.path);
    const request: LimitRequest = {
      accountId: principal.accountId,
      plan: principal.plan,
      keyType: principal.keyType,
      generation,
      sandbox: res.locals.sandbox === true,
      credential: usageCredential(principal),
      ...(outsideQuota === true ? { outsideQuota } : {}),
    };
    const answer = (decision: LimitDecision): void => {
      // Answered meanwhile (a timeout, a parser refusal): nothing more to add to it.
      if (res.headersSent) return;
      const headers = rateLimitHeaders(decision, generation);
      for (const name in headers) res.setHeader(name, headers[name]!);
      if (!decision.allowed) {
        refused(decision.reason === 'quota' ? 'quota' : 'rate');
        throw rateLimitError(decision);
      }
      next();
    };
    // Plans with nothing to count remotely are decided in this turn, without a promise (limiter.ts consumeSync).
    const decided = limiter.consumeSync?.(request);
    if (decided !== undefined) return answer(decided);
    return limiter.consume(request).then(answer);
  };
}
