/**
 * Scopes for the @node-oauth/oauth2-server model (docs/decisions.md "Enterprise JWT and OAuth 2.0"):
 * the permission names (OAUTH_SCOPES); at least one must be requested, with no silent default
 * (least privilege), and an unknown one refuses the request (`invalid_scope`). A token allows an
 * operation only when it was granted every scope the operation needs.
 */
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Client, Token, User } from '@node-oauth/oauth2-server';
import { OAUTH_SCOPES } from '../constants.js';

const { InvalidScopeError } = OAuth2Server;

export function validateScope(_user: User, _client: Client, scope?: string[]): Promise<string[]> {
  if (!scope || scope.length === 0) {
    return Promise.reject(new InvalidScopeError(`Invalid scope: request one or more of ${OAUTH_SCOPES.join(' ')}`));
  }
  const unknown = scope.filter((s) => !OAUTH_SCOPES.includes(s));
  if (unknown.length > 0) return Promise.reject(new InvalidScopeError(`Invalid scope: unknown scope ${unknown.join(' ')}`));
  return Promise.resolve([...new Set(scope)]);
}

export function verifyScope(token: Token, scope: string[]): Promise<boolean> {
  const granted = token.scope ?? [];
  return Promise.resolve(scope.every((s) => granted.includes(s)));
}
