/**
 * The management API over HTTP, mounted at MANAGEMENT_BASE (/dashboard/api) on every API node:
 * each route of routes.ts, validated with its contract.ts schemas, answered by dispatch.ts, errors
 * in the v2 envelope (docs/decisions.md "Dashboard and accounts").
 *
 *  - 'none' routes (sign-in, one-time links) start a session: a browser's Origin, when sent, must be
 *    ours (no login CSRF); no token exists yet.
 *  - every other route needs the session cookie (401 without), and every method but GET also a
 *    same-origin Origin and the session's X-CSRF-Token (api/sessions/csrf.ts).
 *  - an account route acts as the person's membership of `{accountId}` (404 if none).
 */
import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { Config } from '../../shared/config.js';
import { invalidInput, ServiceError } from '../../shared/errors.js';
import type { PlanCatalog } from '../../shared/limits/plans.js';
import type { RequestLimiter } from '../../shared/limits/types.js';
import type { Logger } from '../../shared/log.js';
import type { AccountStore } from '../../shared/store/types.js';
import { renderV2Error } from '../http/envelopes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { isOriginAmong } from '../http/origin.js';
import { noStore } from '../middleware/security-headers.js';
import { type ContractEntry, MANAGEMENT_CONTRACT } from './contract.js';
import { assertCsrf, CSRF_HEADER } from '../sessions/csrf.js';
import type { WebhookService } from '../../shared/webhooks/service.js';
import { type CallInput, HANDLERS, type Outcome } from './dispatch.js';
import { managementSettings, type ManagementContext, resolveActor } from './operations/context.js';
import { activeSession, allowedOrigins, clientInfo, cookieOptions, requestOrigin } from '../sessions/request-session.js';
import { MANAGEMENT_ROUTES, type RouteName } from './routes.js';
import { clearSessionCookie, sessionCookie } from '../sessions/sessions.js';

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
  router.use(noStore());
  router.use(express.json({ limit: MAX_BODY_BYTES, strict: true }));

  function contextFor(req: Request): ManagementContext {
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
  }

  for (const name of Object.keys(MANAGEMENT_ROUTES) as RouteName[]) {
    const route = MANAGEMENT_ROUTES[name];
    const entry: ContractEntry = MANAGEMENT_CONTRACT[name];
    const handler = HANDLERS[name];
    const path = route.path.replace(/\{(\w+)\}/g, ':$1');
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](path, async (req: Request, res: Response) => {
      const ctx = contextFor(req);
      const client = clientInfo(req);
      // Who is asking is settled before what they sent is read: no session answers 401, not 400.
      const read = (): CallInput => ({
        params: (parse(entry.params, req.params, 'path') ?? {}) as Record<string, string>,
        query: parse(entry.query, req.query, 'query'),
        body: parse(entry.body, req.body ?? {}, 'body'),
        client,
      });
      let outcome: Outcome;
      if (handler.auth === 'none') {
        assertOwnOrigin(req, deps.config.PUBLIC_URL);
        outcome = await handler.run(ctx, read());
      } else {
        const active = await activeSession(req, deps.store, ctx.now());
        if (!active) {
          if (client.previousToken !== undefined) res.setHeader('Set-Cookie', clearSessionCookie(cookieOptions(req)));
          throw new ServiceError('UNAUTHORIZED', { message: 'Sign in to continue; your session ended or you are not signed in' });
        }
        assertCsrf(
          { method: req.method, origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site'), presentedToken: req.get(CSRF_HEADER) },
          { token: active.token, id: active.session.id },
          allowedOrigins(req, deps.config.PUBLIC_URL),
        );
        const input = read();
        outcome =
          handler.auth === 'session'
            ? await handler.run(ctx, active, input)
            : await handler.run(ctx, await resolveActor(ctx, active, input.params.accountId ?? ''), input);
      }
      send(req, res, outcome, ctx.now());
    });
  }
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

/** Validates one part of the request with its schema; a route without that schema takes nothing there. */
function parse(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : where;
  throw invalidInput(field, issue ? `${field}: ${issue.message}` : `Invalid ${where}`);
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
