/**
 * The shape of a management handler (api/management/table.ts joins one to each route): what it
 * is given and what it answers. Its own module, so handler sets kept apart (webhooks/handlers.ts)
 * and the table that joins them all depend on it rather than on each other.
 */
import type { ClientInfo } from '../sessions/request-session.js';
import type { ActiveSession } from '../sessions/sessions.js';
import type { WithSession } from './operations/auth.js';
import type { Actor, ManagementContext } from './operations/context.js';

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

export type Public = (ctx: ManagementContext, input: CallInput) => Promise<Outcome>;
export type OfSession = (ctx: ManagementContext, active: ActiveSession, input: CallInput) => Promise<Outcome>;
export type OfAccount = (ctx: ManagementContext, actor: Actor, input: CallInput) => Promise<Outcome>;

export type Handler = { auth: 'none'; run: Public } | { auth: 'session'; run: OfSession } | { auth: 'account'; run: OfAccount };
