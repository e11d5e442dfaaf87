/**
 * The management API's route table, in the one route shape (api/http/route-table.ts): for each
 * route, its method and path (routes.ts, the list the dashboard's browser code shares), who may
 * call it, its schemas and summary (contract.ts, which also types the browser's calls) and the
 * operation that answers it (below, ./operations/). `MANAGEMENT_TABLE` joins them into Routes:
 * http.ts mounts it behind the table's guard (session, CSRF, Origin), api/openapi.ts documents it.
 * The inputs reaching an operation are already parsed by the route's schemas, so the casts below
 * only restate what contract.ts guaranteed.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { invalidInput } from '../../shared/errors.js';
import type { Route, TableContext } from '../http/route-table.js';
import type { RouteDoc } from '../openapi-kit.js';
import { type ContractEntry, MANAGEMENT_CONTRACT } from './contract.js';
import { MgmtError } from './schemas/common.js';
import { accountOverviewOp, setAccountIpAllowListOp } from './operations/account.js';
import {
  changePasswordOp,
  endAllSessionsOp,
  endSessionOp,
  linkInfoOp,
  listSessionsOp,
  meOp,
  setPasswordOp,
  signInOp,
  signOutOp,
  type WithSession,
} from './operations/auth.js';
import { resolveActor, type ManagementContext } from './operations/context.js';
import { listGrantsOp, revokeGrantOp } from './operations/grants.js';
import { addJwtKeysOp, deleteJwtKeyOp, listJwtKeysOp, replaceJwtKeysOp } from './operations/jwt-keys.js';
import { createKeyOp, listKeysOp, revokeKeyOp, rollKeyOp, updateKeyOp } from './operations/keys.js';
import { inviteMemberOp, listMembersOp, memberResetLinkOp, removeMemberOp, updateMemberOp } from './operations/members.js';
import { deleteOAuthAppOp, listOAuthAppsOp, registerOAuthAppOp, rotateOAuthSecretOp, updateOAuthAppOp } from './operations/oauth-apps.js';
import { sandboxOp } from './operations/sandbox.js';
import { usageCsvOp, usageOp } from './operations/usage.js';
import { MANAGEMENT_ROUTES, type RouteName } from './routes.js';
import type { AccountIpAllowListRequest } from './schemas/account.js';
import type { ChangePasswordRequest, EndAllSessionsRequest, LinkRequest, SetPasswordRequest, SignInRequest } from './schemas/auth.js';
import type { AddJwtKeysRequest } from './schemas/jwt.js';
import type { CreateKeyRequest, RollKeyRequest, UpdateKeyRequest } from './schemas/keys.js';
import type { InviteMemberRequest, UpdateMemberRequest } from './schemas/members.js';
import type { RegisterOAuthAppRequest, UpdateOAuthAppRequest } from './schemas/oauth.js';
import type { UsageQuery } from './schemas/usage.js';
import { clientInfo } from '../sessions/request-session.js';
import type { ActiveSession } from '../sessions/sessions.js';
import { WEBHOOK_HANDLERS } from './webhooks/handlers.js';
import type { CallInput, Handler, OfAccount, OfSession, Outcome, Public } from './handler.js';

export type { CallInput, Handler, Outcome } from './handler.js';

const json = async (p: Promise<unknown>): Promise<Outcome> => ({ body: await p });
const withSession = async (p: Promise<WithSession<unknown>>): Promise<Outcome> => {
  const { body, session } = await p;
  return { body, session };
};
const param = (input: CallInput, name: string): string => input.params[name] ?? '';

const none = (run: Public): Handler => ({ auth: 'none', run });
const session = (run: OfSession): Handler => ({ auth: 'session', run });
const account = (run: OfAccount): Handler => ({ auth: 'account', run });

const HANDLERS: Record<RouteName, Handler> = {
  signIn: none((ctx, i) => withSession(signInOp(ctx, i.body as SignInRequest, i.client))),
  linkInfo: none((ctx, i) => json(linkInfoOp(ctx, i.body as LinkRequest))),
  setPassword: none((ctx, i) => withSession(setPasswordOp(ctx, i.body as SetPasswordRequest, i.client))),

  signOut: session(async (ctx, active) => ({ body: await signOutOp(ctx, active.token), clearCookie: true })),
  me: session((ctx, active) => json(meOp(ctx, active))),
  changePassword: session((ctx, active, i) => withSession(changePasswordOp(ctx, active, i.body as ChangePasswordRequest))),
  listSessions: session((ctx, active) => json(listSessionsOp(ctx, active))),
  endSession: session(async (ctx, active, i) => {
    const sessionId = param(i, 'sessionId');
    return { body: await endSessionOp(ctx, active, sessionId), clearCookie: sessionId === active.session.id };
  }),
  endAllSessions: session(async (ctx, active, i) => {
    const input = i.body as EndAllSessionsRequest;
    return { body: await endAllSessionsOp(ctx, active, input), clearCookie: !input.keepCurrent };
  }),

  accountOverview: account((ctx, actor) => json(accountOverviewOp(ctx, actor))),
  setAccountIpAllowList: account((ctx, actor, i) => json(setAccountIpAllowListOp(ctx, actor, i.body as AccountIpAllowListRequest))),
  listKeys: account((ctx, actor) => json(listKeysOp(ctx, actor))),
  createKey: account((ctx, actor, i) => json(createKeyOp(ctx, actor, i.body as CreateKeyRequest))),
  updateKey: account((ctx, actor, i) => json(updateKeyOp(ctx, actor, param(i, 'keyId'), i.body as UpdateKeyRequest))),
  revokeKey: account((ctx, actor, i) => json(revokeKeyOp(ctx, actor, param(i, 'keyId')))),
  rollKey: account((ctx, actor, i) => json(rollKeyOp(ctx, actor, param(i, 'keyId'), i.body as RollKeyRequest))),
  usage: account((ctx, actor, i) => json(usageOp(ctx, actor, i.query as UsageQuery))),
  usageCsv: account(async (ctx, actor, i) => ({ body: await usageCsvOp(ctx, actor, i.query as UsageQuery), csv: true })),
  sandbox: account((ctx, actor) => json(sandboxOp(ctx, actor))),
  listOAuthApps: account((ctx, actor) => json(listOAuthAppsOp(ctx, actor))),
  registerOAuthApp: account((ctx, actor, i) => json(registerOAuthAppOp(ctx, actor, i.body as RegisterOAuthAppRequest))),
  updateOAuthApp: account((ctx, actor, i) => json(updateOAuthAppOp(ctx, actor, param(i, 'clientId'), i.body as UpdateOAuthAppRequest))),
  rotateOAuthSecret: account((ctx, actor, i) => json(rotateOAuthSecretOp(ctx, actor, param(i, 'clientId')))),
  deleteOAuthApp: account((ctx, actor, i) => json(deleteOAuthAppOp(ctx, actor, param(i, 'clientId')))),
  listGrants: account((ctx, actor) => json(listGrantsOp(ctx, actor))),
  revokeGrant: account((ctx, actor, i) => json(revokeGrantOp(ctx, actor, param(i, 'grantId')))),
  listMembers: account((ctx, actor) => json(listMembersOp(ctx, actor))),
  inviteMember: account((ctx, actor, i) => json(inviteMemberOp(ctx, actor, i.body as InviteMemberRequest))),
  updateMember: account((ctx, actor, i) => json(updateMemberOp(ctx, actor, param(i, 'userId'), i.body as UpdateMemberRequest))),
  removeMember: account((ctx, actor, i) => json(removeMemberOp(ctx, actor, param(i, 'userId')))),
  memberResetLink: account((ctx, actor, i) => json(memberResetLinkOp(ctx, actor, param(i, 'userId')))),
  listJwtKeys: account((ctx, actor) => json(listJwtKeysOp(ctx, actor))),
  addJwtKeys: account((ctx, actor, i) => json(addJwtKeysOp(ctx, actor, i.body as AddJwtKeysRequest))),
  replaceJwtKeys: account((ctx, actor, i) => json(replaceJwtKeysOp(ctx, actor, i.body as AddJwtKeysRequest))),
  deleteJwtKey: account((ctx, actor, i) => json(deleteJwtKeyOp(ctx, actor, param(i, 'kid')))),
  ...WEBHOOK_HANDLERS,
};

/** Who may call a management route (contract.ts `auth`), as the table's guard (http.ts) reads it. */
export type ManagementAuth = ContractEntry['auth'];

/** What http.ts hands the routes: the guard, the request's context, the admitted session, the answer. */
export interface ManagementTableContext extends TableContext<ManagementAuth> {
  contextFor: (req: Request) => ManagementContext;
  /** The session the guard admitted (session and account routes). */
  sessionOf: (req: Request) => ActiveSession;
  send: (req: Request, res: Response, outcome: Outcome, now: Date) => void;
}

/** The security scheme of the dashboard's session cookie (api/openapi.ts registers it). */
export const SESSION_SECURITY_SCHEME = 'dashboardSession';

export function managementSecurity(auth: ManagementAuth): Array<Record<string, string[]>> {
  return auth === 'none' ? [] : [{ [SESSION_SECURITY_SCHEME]: [] }];
}

/** `listKeys` → `listKeysDashboard`: the document's operationIds are camelCase, suffixed by area (hashV2, tokenOAuth). */
export function managementOperationId(route: string): string {
  return `${route}Dashboard`;
}

/** Below MANAGEMENT_BASE, in declaration order (routes.ts). */
export const MANAGEMENT_TABLE: ReadonlyArray<Route<ManagementAuth, ManagementTableContext>> = (
  Object.keys(MANAGEMENT_ROUTES) as RouteName[]
).map((name) => {
  const entry: ContractEntry = MANAGEMENT_CONTRACT[name];
  const handler = HANDLERS[name];
  if (handler.auth !== entry.auth) throw new TypeError(`${name}: contract.ts says ${entry.auth}, its handler ${handler.auth}`);
  const { method, path } = MANAGEMENT_ROUTES[name];
  return {
    method: method.toLowerCase() as Lowercase<typeof method>,
    path: path.replace(/\{(\w+)\}/g, ':$1'),
    permission: entry.auth,
    // Every management request's body is read as JSON by http.ts before its guard; this names the route's.
    ...(entry.body === undefined ? {} : { body: 'json' as const }),
    handle: async (ctx, req, res) => {
      const mctx = ctx.contextFor(req);
      const input: CallInput = {
        params: (parse(entry.params, req.params, 'path') ?? {}) as Record<string, string>,
        query: parse(entry.query, req.query, 'query'),
        body: parse(entry.body, req.body ?? {}, 'body'),
        client: clientInfo(req),
      };
      let outcome: Outcome;
      if (handler.auth === 'none') outcome = await handler.run(mctx, input);
      else if (handler.auth === 'session') outcome = await handler.run(mctx, ctx.sessionOf(req), input);
      else outcome = await handler.run(mctx, await resolveActor(mctx, ctx.sessionOf(req), input.params.accountId ?? ''), input);
      ctx.send(req, res, outcome, mctx.now());
    },
    doc: documentation(name, entry),
  };
});

/** Validates one part of the request with its schema; a route without that schema takes nothing there. */
function parse(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : where;
  throw invalidInput(field, issue ? `${field}: ${issue.message}` : `Invalid ${where}`);
}

function documentation(name: RouteName, entry: ContractEntry): RouteDoc {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: MgmtError } } });
  const success =
    entry.response === 'csv'
      ? { description: 'OK', content: { 'text/csv': { schema: { type: 'string' as const } } } }
      : { description: 'OK', content: { 'application/json': { schema: entry.response } } };
  return {
    operationId: managementOperationId(name),
    summary: entry.summary,
    custom: (gen) => ({
      request: {
        ...(entry.params ? { params: entry.params as never } : {}),
        ...(entry.query ? { query: entry.query as never } : {}),
        ...(entry.body ? { body: { required: true, content: { 'application/json': { schema: entry.body } } } } : {}),
      },
      responses: {
        200: success,
        400: error('INVALID_INPUT'),
        401: error('UNAUTHORIZED (no session, or it ended)'),
        403: error('FORBIDDEN (role, plan, Origin or CSRF token)'),
        404: error('NOT_FOUND (also: an account the person is not a member of)'),
        429: { ...error('RATE_LIMIT_EXCEEDED (sign-in throttling)'), headers: { 'Retry-After': gen.headers.retryAfter } },
      },
    }),
  };
}
