/**
 * The management API over HTTP, mounted at MANAGEMENT_BASE (/dashboard/api) on every API node:
 * its route table (table.ts) behind the table's guard, errors in the v2 envelope (docs/decisions.md
 * "Dashboard and accounts"). The guard:
 *
 *  - 'none' routes (sign-in, one-time links) start a session: a browser's Origin, when sent, must be
 *    ours (no login CSRF); no token exists yet.
 *  - every other route needs the session cookie (401 without), and every method but GET also a
 *    same-origin Origin and the session's X-CSRF-Token (api/sessions/csrf.ts).
 *  - an account route acts as the person's membership of `{accountId}` (404 if none).
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Config } from '../../shared/config.js';
import { ServiceError } from '../../shared/errors.js';
import type { PlanCatalog } from '../../shared/limits/plans.js';
import type { RequestLimiter } from '../../shared/limits/types.js';
import type { Logger } from '../../shared/log.js';
import type { AccountStore } from '../../shared/store/types.js';
import { renderV2Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { isOriginAmong } from '../http/origin.js';
import { noStore } from '../middleware/security-headers.js';
import { mountRoutes } from '../http/route-table.js';
import { assertCsrf, CSRF_HEADER } from '../sessions/csrf.js';
import type { WebhookService } from '../../shared/webhooks/service.js';
import { MANAGEMENT_TABLE, type ManagementTableContext, type Outcome } from './table.js';
import { managementSettings } from './operations/context.js';
import { activeSession, allowedOrigins, clientInfo, cookieOptions, requestOrigin } from '../sessions/request-session.js';
import { type ActiveSession, clearSessionCookie, sessionCookie } from '../sessions/sessions.js';

export interface ManagementHttpDeps {
  config: Config;
  logger: Logger;
  store: AccountStore;
  catalog: PlanCatalog;
  limiter: Pick<RequestLimiter, 'usage'>;
  serviceStatus: () => Promise<'operational' | 'degraded'>;
  now?: () => Date;
  webhooks?: WebhookService | undefined;
}

/** Request bodies are a few hundred bytes; a JWKS of 20 keys is the largest, well below this. */
const MAX_BODY_BYTES = 64 * 1024;

export function createManagementRouter(deps: ManagementHttpDeps): Router {
  const now = deps.now ?? (() => new Date());
  const settings = managementSettings(deps.config);
  const router = express.Router();
  // Every management request's body is read before its guard, so a malformed one is a 400 whatever the session.
  router.use(noStore());
  router.use(express.json({ limit: MAX_BODY_BYTES, strict: true }));

  // The session each request's guard admitted, for its route.
  const sessions = new WeakMap<Request, ActiveSession>();
  const admitSession: RequestHandler = async function admitSession(req, res, next) {
    const active = await activeSession(req, deps.store, now());
    if (!active) {
      if (clientInfo(req).previousToken !== undefined) res.setHeader('Set-Cookie', clearSessionCookie(cookieOptions(req)));
      throw new ServiceError('UNAUTHORIZED', { message: 'Sign in to continue; your session ended or you are not signed in' });
    }
    assertCsrf(
      { method: req.method, origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site'), presentedToken: req.get(CSRF_HEADER) },
      { token: active.token, id: active.session.id },
      allowedOrigins(req, deps.config.PUBLIC_URL),
    );
    sessions.set(req, active);
    next();
  };
  const ownOrigin: RequestHandler = function ownOrigin(req, _res, next) {
    assertOwnOrigin(req, deps.config.PUBLIC_URL);
    next();
  };

  const ctx: ManagementTableContext = {
    guard: (auth) => (auth === 'none' ? [ownOrigin] : [admitSession]),
    // The JSON body is parsed for every request above (and validated per route by its schema).
    bodies: { json: (_req, _res, next) => next() },
    // An unknown method or path is the v2 404 below, as it always was.
    methodNotAllowed: false,
    contextFor: (req) => {
      const origin = requestOrigin(req) ?? 'http://localhost';
      return {
        store: deps.store,
        catalog: deps.catalog,
        limiter: deps.limiter,
        settings,
        baseUrl: deps.config.PUBLIC_URL ?? origin,
        sandboxUrl: sandboxUrl(deps.config, req),
        serviceStatus: deps.serviceStatus,
        now,
        webhooks: deps.webhooks,
      };
    },
    sessionOf: (req) => {
      const active = sessions.get(req);
      if (active === undefined) throw new Error('management route without a session guard');
      return active;
    },
    send,
  };
  mountRoutes(router, MANAGEMENT_TABLE, ctx);
  router.use(notFound(renderV2Error));
  router.use(errorHandler({ render: renderV2Error, logger: deps.logger }));
  return router;
}

function send(req: Request, res: Response, outcome: Outcome, now: Date): void {
  const options = cookieOptions(req);
  if (outcome.session) res.setHeader('Set-Cookie', sessionCookie(outcome.session.token, outcome.session.expiresAt, now, options));
  else if (outcome.clearCookie) res.setHeader('Set-Cookie', clearSessionCookie(options));
  if (outcome.csv) {
    res.setHeader('Content-Disposition', 'attachment; filename="usage.csv"');
    res.type('text/csv; charset=utf-8').send(String(outcome.body));
    return;
  }
  res.json(outcome.body);
}

/** Sign-in and link routes: a browser names its page's origin, which must be ours (login CSRF). */
function assertOwnOrigin(req: Request, publicUrl: string | undefined): void {
  const origin = req.get('origin');
  const site = req.get('sec-fetch-site');
  const foreign =
    origin !== undefined
      ? !isOriginAmong(origin, allowedOrigins(req, publicUrl))
      : site !== undefined && site !== 'same-origin' && site !== 'none';
  if (foreign) {
    throw new ServiceError('FORBIDDEN', {
      message: 'This request must come from the dashboard page; open the dashboard and try again',
      cause: new Error('cross-origin sign-in'),
    });
  }
}

/** Where the sandbox answers ({sandbox_url} of docs/api.md "Overview"): its own host name, or the main host on the sandbox port. */
function sandboxUrl(config: Config, req: Request): string | null {
  const scheme = req.protocol === 'https' ? 'https' : 'http';
  if (config.SANDBOX_HOST) return `${scheme}://${config.SANDBOX_HOST}`;
  if (config.SANDBOX_PORT) return `${scheme}://${req.hostname.includes(':') ? `[${req.hostname}]` : req.hostname}:${config.SANDBOX_PORT}`;
  return null;
}
