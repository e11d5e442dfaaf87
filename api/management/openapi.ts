/**
 * The management API's OpenAPI entries, generated from contract.ts. The document builder calls
 * `registerManagementPaths` once the routes are mounted, so the document never lists a route the
 * server does not serve.
 */
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { type ContractEntry, MANAGEMENT_CONTRACT } from './contract.js';
import { MgmtError } from './schemas/common.js';
import { MANAGEMENT_BASE, MANAGEMENT_ROUTES, type RouteName } from './routes.js';
import { headerRef } from '../openapi-kit.js';

export const SESSION_SECURITY_SCHEME = 'dashboardSession';

export function registerManagementPaths(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', SESSION_SECURITY_SCHEME, {
    type: 'apiKey',
    in: 'cookie',
    name: 'sha224d_session',
    description:
      'The dashboard session cookie (`__Host-sha224d_session` over HTTPS). Requests other than GET also need `X-CSRF-Token` and a same-origin `Origin`.',
  });
  const error = (description: string) => ({ description, content: { 'application/json': { schema: MgmtError } } });
  for (const name of Object.keys(MANAGEMENT_ROUTES) as RouteName[]) {
    const route = MANAGEMENT_ROUTES[name];
    const entry: ContractEntry = MANAGEMENT_CONTRACT[name];
    const success =
      entry.response === 'csv'
        ? { description: 'OK', content: { 'text/csv': { schema: { type: 'string' as const } } } }
        : { description: 'OK', content: { 'application/json': { schema: entry.response } } };
    registry.registerPath({
      operationId: managementOperationId(name),
      tags: ['Dashboard'],
      method: route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete',
      path: MANAGEMENT_BASE + route.path,
      summary: entry.summary,
      security: entry.auth === 'none' ? [] : [{ [SESSION_SECURITY_SCHEME]: [] }],
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
        429: { ...error('RATE_LIMIT_EXCEEDED (sign-in throttling)'), headers: { 'Retry-After': headerRef('Retry-After') } },
      },
    });
  }
}

/** `listKeys` → `listKeysDashboard`: the document's operationIds are camelCase, suffixed by area (hashV2, tokenOAuth). */
export function managementOperationId(route: string): string {
  return `${route}Dashboard`;
}
