/**
 * The management API's contract: for every route of routes.ts, who may call it, its request
 * schemas (path, query, body) and its response schema. The HTTP layer validates with these and
 * generates the OpenAPI entries from them; `ManagementApi` gives the dashboard's browser code the
 * same types (imported as types only, so no schema code reaches the browser bundle).
 *
 * `auth`: 'none' — no session (sign-in, one-time links); 'session' — a signed-in person acting on
 * themselves; 'account' — a signed-in member acting on `{accountId}` (resolveActor). Every method
 * other than GET also needs Origin and the CSRF token (api/sessions/csrf.ts), except the 'none' ones, which start
 * a session rather than act in one.
 */
import { AccountIpAllowListRequest, AccountIpAllowListResponse, AccountOverviewResponse } from './schemas/account.js';
import {
  ChangePasswordRequest,
  EndAllSessionsRequest,
  EndAllSessionsResponse,
  LinkInfoResponse,
  LinkRequest,
  SessionListResponse,
  SessionParams,
  SessionResponse,
  SetPasswordRequest,
  SignInRequest,
} from './schemas/auth.js';
import { AccountParams, Ok, type z } from './schemas/common.js';
import { AddJwtKeysRequest, JwtKeyListResponse, JwtKeyParams } from './schemas/jwt.js';
import {
  ApiKeyView,
  CreatedKeyResponse,
  CreateKeyRequest,
  KeyListResponse,
  KeyParams,
  RolledKeyResponse,
  RollKeyRequest,
  UpdateKeyRequest,
} from './schemas/keys.js';
import {
  InvitedMemberResponse,
  InviteMemberRequest,
  MemberListResponse,
  MemberParams,
  MemberView,
  ResetLinkResponse,
  UpdateMemberRequest,
} from './schemas/members.js';
import {
  GrantListResponse,
  GrantParams,
  OAuthAppListResponse,
  OAuthAppParams,
  OAuthAppView,
  RegisteredOAuthAppResponse,
  RegisterOAuthAppRequest,
  RotatedSecretResponse,
  UpdateOAuthAppRequest,
} from './schemas/oauth.js';
import { SandboxResponse } from './schemas/sandbox.js';
import { UsageQuery, UsageResponse } from './schemas/usage.js';
import type { MANAGEMENT_ROUTES, RouteName } from './routes.js';
import { WEBHOOK_CONTRACT } from './webhooks/contract.js';

type Schema = z.ZodType;

export interface ContractEntry {
  auth: 'none' | 'session' | 'account';
  summary: string;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** A JSON schema, or 'csv' for text/csv. */
  response: Schema | 'csv';
}

const account = { auth: 'account', params: AccountParams } as const;

export const MANAGEMENT_CONTRACT = {
  signIn: {
    auth: 'none',
    summary: 'Sign in with email and password; sets the session cookie',
    body: SignInRequest,
    response: SessionResponse,
  },
  signOut: { auth: 'session', summary: 'Sign out: ends this session and clears the cookie', response: Ok },
  linkInfo: { auth: 'none', summary: 'What a one-time link is for, without spending it', body: LinkRequest, response: LinkInfoResponse },
  setPassword: {
    auth: 'none',
    summary: 'Set a password with a one-time link; ends other sessions and signs in',
    body: SetPasswordRequest,
    response: SessionResponse,
  },
  me: { auth: 'session', summary: 'The signed-in person, their accounts and the CSRF token', response: SessionResponse },
  changePassword: {
    auth: 'session',
    summary: 'Change the password; ends other sessions and rotates this one',
    body: ChangePasswordRequest,
    response: SessionResponse,
  },
  listSessions: { auth: 'session', summary: "The person's live sessions", response: SessionListResponse },
  endSession: { auth: 'session', summary: 'End one session', params: SessionParams, response: Ok },
  endAllSessions: {
    auth: 'session',
    summary: 'Sign out everywhere (optionally keeping this session)',
    body: EndAllSessionsRequest,
    response: EndAllSessionsResponse,
  },
  accountOverview: {
    ...account,
    summary: "Plan, today's requests against the quota, rate limits, service status",
    response: AccountOverviewResponse,
  },
  setAccountIpAllowList: {
    ...account,
    summary: 'Replace the account-wide IP allow-list (Pro and Enterprise)',
    body: AccountIpAllowListRequest,
    response: AccountIpAllowListResponse,
  },
  listKeys: { ...account, summary: "The account's API keys, newest first", response: KeyListResponse },
  createKey: {
    ...account,
    summary: 'Create a key; the secret is in this answer only',
    body: CreateKeyRequest,
    response: CreatedKeyResponse,
  },
  updateKey: {
    auth: 'account',
    params: KeyParams,
    summary: "Edit a key's description, allowed domains or IP allow-list",
    body: UpdateKeyRequest,
    response: ApiKeyView,
  },
  revokeKey: { auth: 'account', params: KeyParams, summary: 'Revoke a key for good', response: ApiKeyView },
  rollKey: {
    auth: 'account',
    params: KeyParams,
    summary: 'Replace a key; both work until the grace period ends. The new secret is in this answer only',
    body: RollKeyRequest,
    response: RolledKeyResponse,
  },
  usage: { ...account, summary: 'Requests per day by generation and by credential', query: UsageQuery, response: UsageResponse },
  usageCsv: { ...account, summary: 'The same usage as CSV', query: UsageQuery, response: 'csv' },
  sandbox: { ...account, summary: 'The sandbox: its address and its own usage', response: SandboxResponse },
  listOAuthApps: { ...account, summary: "The account's OAuth applications", response: OAuthAppListResponse },
  registerOAuthApp: {
    ...account,
    summary: 'Register an OAuth application (Enterprise); the secret is in this answer only',
    body: RegisterOAuthAppRequest,
    response: RegisteredOAuthAppResponse,
  },
  updateOAuthApp: {
    auth: 'account',
    params: OAuthAppParams,
    summary: 'Rename an application or replace its redirect URIs',
    body: UpdateOAuthAppRequest,
    response: OAuthAppView,
  },
  rotateOAuthSecret: {
    auth: 'account',
    params: OAuthAppParams,
    summary: 'Issue a new client secret; the old one stops working',
    response: RotatedSecretResponse,
  },
  deleteOAuthApp: { auth: 'account', params: OAuthAppParams, summary: 'Delete an application with its tokens and consents', response: Ok },
  listGrants: { ...account, summary: 'Authorized applications: who consented to what, and when', response: GrantListResponse },
  revokeGrant: { auth: 'account', params: GrantParams, summary: 'End an authorization; its tokens stop working', response: Ok },
  listMembers: { ...account, summary: 'Members and their roles', response: MemberListResponse },
  inviteMember: {
    ...account,
    summary: 'Add a person; a setup link is returned once when they need one',
    body: InviteMemberRequest,
    response: InvitedMemberResponse,
  },
  updateMember: {
    auth: 'account',
    params: MemberParams,
    summary: "Change a member's role",
    body: UpdateMemberRequest,
    response: MemberView,
  },
  removeMember: { auth: 'account', params: MemberParams, summary: 'Remove a member (or leave); their authorizations end', response: Ok },
  memberResetLink: {
    auth: 'account',
    params: MemberParams,
    summary: 'A one-time password-reset link for a member, returned once',
    response: ResetLinkResponse,
  },
  listJwtKeys: { ...account, summary: 'JWT verification keys, with the iss and aud tokens must carry', response: JwtKeyListResponse },
  addJwtKeys: {
    ...account,
    summary: 'Add public keys (PEM, JWK or JWKS; Enterprise)',
    body: AddJwtKeysRequest,
    response: JwtKeyListResponse,
  },
  replaceJwtKeys: {
    ...account,
    summary: 'Rotate: the given keys replace all others at once',
    body: AddJwtKeysRequest,
    response: JwtKeyListResponse,
  },
  deleteJwtKey: { auth: 'account', params: JwtKeyParams, summary: 'Delete a key; its tokens stop working at once', response: Ok },
  ...WEBHOOK_CONTRACT,
} as const satisfies Record<RouteName, ContractEntry>;

type Contract = typeof MANAGEMENT_CONTRACT;
type In<E, K extends string> = E extends Record<K, infer S extends Schema> ? z.input<S> : undefined;
type Out<E> = E extends { response: infer S extends Schema } ? z.output<S> : string;

/** Per route: what the client sends (path parameters, query, body) and what it gets back. */
export type ManagementApi = {
  [K in RouteName]: {
    method: (typeof MANAGEMENT_ROUTES)[K]['method'];
    params: In<Contract[K], 'params'>;
    query: In<Contract[K], 'query'>;
    body: In<Contract[K], 'body'>;
    response: Out<Contract[K]>;
  };
};
