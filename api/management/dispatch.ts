/**
 * Which operation answers each management route, and with what: the one table between the HTTP
 * layer (http.ts, which authenticates, checks CSRF and validates with contract.ts) and the
 * operations (./operations/). The inputs reaching here are already parsed by the route's schemas,
 * so the casts below only restate what contract.ts guaranteed.
 */
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
import type { Actor, ManagementContext } from './operations/context.js';
import { listGrantsOp, revokeGrantOp } from './operations/grants.js';
import { addJwtKeysOp, deleteJwtKeyOp, listJwtKeysOp, replaceJwtKeysOp } from './operations/jwt-keys.js';
import { createKeyOp, listKeysOp, revokeKeyOp, rollKeyOp, updateKeyOp } from './operations/keys.js';
import { inviteMemberOp, listMembersOp, memberResetLinkOp, removeMemberOp, updateMemberOp } from './operations/members.js';
import { deleteOAuthAppOp, listOAuthAppsOp, registerOAuthAppOp, rotateOAuthSecretOp, updateOAuthAppOp } from './operations/oauth-apps.js';
import { sandboxOp } from './operations/sandbox.js';
import { usageCsvOp, usageOp } from './operations/usage.js';
import type { RouteName } from './routes.js';
import { WEBHOOK_HANDLERS } from './webhooks/handlers.js';
import type { AccountIpAllowListRequest } from './schemas/account.js';
import type { ChangePasswordRequest, EndAllSessionsRequest, LinkRequest, SetPasswordRequest, SignInRequest } from './schemas/auth.js';
import type { AddJwtKeysRequest } from './schemas/jwt.js';
import type { CreateKeyRequest, RollKeyRequest, UpdateKeyRequest } from './schemas/keys.js';
import type { InviteMemberRequest, UpdateMemberRequest } from './schemas/members.js';
import type { RegisterOAuthAppRequest, UpdateOAuthAppRequest } from './schemas/oauth.js';
import type { UsageQuery } from './schemas/usage.js';
import type { ClientInfo } from '../sessions/request-session.js';
import type { ActiveSession } from '../sessions/sessions.js';

export interface CallInput {
  params: Record<string, string>;
  query: unknown;
  body: unknown;
  client: ClientInfo;
}

/** What the HTTP layer sends: a JSON body or CSV text, and what to do with the session cookie. */
export interface Outcome {
  body: unknown;
  csv?: boolean;
  /** Set this session as the cookie. */
  session?: WithSession<unknown>['session'];
  /** Remove the cookie (the session it names ended). */
  clearCookie?: boolean;
}

type Public = (ctx: ManagementContext, input: CallInput) => Promise<Outcome>;
type OfSession = (ctx: ManagementContext, active: ActiveSession, input: CallInput) => Promise<Outcome>;
type OfAccount = (ctx: ManagementContext, actor: Actor, input: CallInput) => Promise<Outcome>;

export type Handler = { auth: 'none'; run: Public } | { auth: 'session'; run: OfSession } | { auth: 'account'; run: OfAccount };

const json = async (p: Promise<unknown>): Promise<Outcome> => ({ body: await p });
const withSession = async (p: Promise<WithSession<unknown>>): Promise<Outcome> => {
  const { body, session } = await p;
  return { body, session };
};
const param = (input: CallInput, name: string): string => input.params[name] ?? '';

const none = (run: Public): Handler => ({ auth: 'none', run });
const session = (run: OfSession): Handler => ({ auth: 'session', run });
const account = (run: OfAccount): Handler => ({ auth: 'account', run });

export const HANDLERS: Record<RouteName, Handler> = {
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
