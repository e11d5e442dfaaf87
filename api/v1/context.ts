import type { RequestHandler } from 'express';
import type { Permission } from '../../shared/auth/principal.js';
import type { ApiDeps } from '../deps.js';

/** What each v1 endpoint set needs to mount its routes. */
export interface V1Context {
  deps: ApiDeps;
  /** Authenticate, check Origin and `permission`, count against this set's limits. */
  guard: (permission: Permission) => RequestHandler[];
  json: RequestHandler;
}

/** Paths a set serves with their methods; any other method answers 405 with Allow. */
export type RouteTable = ReadonlyArray<readonly [path: string, methods: readonly string[]]>;
