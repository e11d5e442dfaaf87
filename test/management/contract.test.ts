/** The management contract: every route has schemas, paths fill in, and the OpenAPI entries generate. */
import { describe, expect, it } from 'vitest';
import { MANAGEMENT_CONTRACT } from '../../api/management/contract.js';
import { MANAGEMENT_TABLE, managementOperationId } from '../../api/management/table.js';
import { buildOpenApiDocument } from '../../api/openapi.js';
import { MANAGEMENT_BASE, MANAGEMENT_ROUTES, routePath } from '../../api/management/routes.js';

describe('management contract', () => {
  it('describes exactly the routes, each with a summary and a response', () => {
    expect(Object.keys(MANAGEMENT_CONTRACT).sort()).toEqual(Object.keys(MANAGEMENT_ROUTES).sort());
    for (const [name, entry] of Object.entries(MANAGEMENT_CONTRACT)) {
      expect(entry.summary.length, name).toBeGreaterThan(10);
      const path = MANAGEMENT_ROUTES[name as keyof typeof MANAGEMENT_ROUTES].path;
      // Account-scoped routes name the account; the others never do.
      expect(path.startsWith('/accounts/{accountId}'), name).toBe(entry.auth === 'account');
      expect('params' in entry, name).toBe(path.includes('{'));
    }
  });

  it('is one route table: each route once, with its method, its Express path and the auth of its contract', () => {
    expect(MANAGEMENT_TABLE.map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`)).toEqual(
      Object.values(MANAGEMENT_ROUTES).map((r) => `${r.method} ${r.path}`),
    );
    for (const [i, name] of Object.keys(MANAGEMENT_ROUTES).entries()) {
      expect(MANAGEMENT_TABLE[i]?.permission, name).toBe(MANAGEMENT_CONTRACT[name as keyof typeof MANAGEMENT_CONTRACT].auth);
      expect(MANAGEMENT_TABLE[i]?.doc.operationId, name).toBe(managementOperationId(name));
    }
  });

  it('has no two routes on one method and path', () => {
    const seen = Object.values(MANAGEMENT_ROUTES).map((r) => `${r.method} ${r.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('fills path parameters, percent-encoding them, and refuses a missing one', () => {
    expect(routePath('revokeKey', { accountId: 'acc_1', keyId: 'key_a/b' })).toBe(
      `${MANAGEMENT_BASE}/accounts/acc_1/keys/key_a%2Fb/revoke`,
    );
    expect(routePath('me')).toBe('/dashboard/api/me');
    expect(() => routePath('listKeys')).toThrow('missing path parameter accountId');
  });

  it('generates an OpenAPI 3.1 entry per route, with the session cookie scheme', () => {
    const doc = buildOpenApiDocument({ oauth: false, management: true });
    const operations = Object.values(doc.paths ?? {})
      .flatMap((item) => Object.values(item as Record<string, { operationId?: string; tags?: string[] }>))
      .filter((o) => o.tags?.includes('Dashboard'));
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      Object.keys(MANAGEMENT_ROUTES)
        .map((n) => managementOperationId(n))
        .sort(),
    );
    expect(doc.components?.securitySchemes?.dashboardSession).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(doc.paths?.['/dashboard/api/accounts/{accountId}/keys']?.post?.requestBody).toBeDefined();
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(
      expect.arrayContaining(['MgmtApiKey', 'MgmtCreatedKey', 'MgmtUsage', 'MgmtSessionResponse']),
    );
  });
});
