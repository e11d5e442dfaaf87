import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_CATALOG, loadPlanCatalog, parsePlanCatalog } from '../../shared/limits/plans.js';

const MB = 1024 * 1024;

/** docs/api.md "Limits", transcribed table by table; the catalog must serve exactly these. */
const V1_BY_TIER = {
  Free: { perDay: 1_000, perSecond: 5, maxFile: 5 * MB },
  Developer: { perDay: 50_000, perSecond: 20, maxFile: 25 * MB },
  Enterprise: { perDay: null, perSecond: null, maxFile: 100 * MB },
};
const V1_BY_PLAN = {
  free: { perMinute: 10, perDay: 1_000 },
  basic: { perMinute: 60, perDay: 10_000 },
  pro: { perMinute: 300, perDay: 100_000 },
  enterprise: { perMinute: 1_000, perDay: null },
};
const V2_BY_PLAN = {
  free: { perSecond: 10, perDay: 1_000, maxFile: 10 * MB, ws: 1 },
  basic: { perSecond: 50, perDay: 10_000, maxFile: 50 * MB, ws: 5 },
  pro: { perSecond: 200, perDay: 100_000, maxFile: 100 * MB, ws: 20 },
  enterprise: { perSecond: null, perDay: null, maxFile: 1024 * MB, ws: null },
};
const TIER_OF = { free: 'Free', basic: 'Developer', pro: 'Developer', enterprise: 'Enterprise' } as const;

function writeTemp(content: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sha224d-plans-'));
  const file = path.join(dir, 'plans.json');
  writeFileSync(file, content);
  return file;
}

describe('plan catalog defaults', () => {
  for (const plan of ['free', 'basic', 'pro', 'enterprise'] as const) {
    it(`${plan} serves the contract's tables`, () => {
      const p = DEFAULT_PLAN_CATALOG.plans[plan];
      const tier = V1_BY_TIER[TIER_OF[plan]];
      expect(p.v1Tier).toBe(TIER_OF[plan]);
      expect(p.v1PerSecond).toBe(tier.perSecond);
      expect(p.v1MaxFileBytes).toBe(tier.maxFile);
      expect(p.v1PerMinute).toBe(V1_BY_PLAN[plan].perMinute);
      expect(p.dailyQuota).toBe(V1_BY_PLAN[plan].perDay);
      expect(p.v2PerSecond).toBe(V2_BY_PLAN[plan].perSecond);
      expect(p.dailyQuota).toBe(V2_BY_PLAN[plan].perDay);
      expect(p.v2MaxFileBytes).toBe(V2_BY_PLAN[plan].maxFile);
      expect(p.wsConnections).toBe(V2_BY_PLAN[plan].ws);
    });
  }

  it('caps /v2/file at 100 MB (docs/api.md "Other limits")', () => {
    expect(DEFAULT_PLAN_CATALOG.v2FileEndpointMaxBytes).toBe(100 * MB);
  });

  it('loads the defaults when PLANS_FILE is unset', () => {
    expect(loadPlanCatalog()).toEqual(DEFAULT_PLAN_CATALOG);
    expect(loadPlanCatalog('')).toEqual(DEFAULT_PLAN_CATALOG);
  });

  it('ships deploy/plans.json equal to the defaults', () => {
    expect(loadPlanCatalog(path.resolve(import.meta.dirname, '../../deploy/plans.json'))).toEqual(DEFAULT_PLAN_CATALOG);
  });
});

describe('plan catalog overrides', () => {
  it('merges a partial file field by field; missing plans and fields keep their defaults', () => {
    const file = writeTemp(
      JSON.stringify({
        plans: { free: { dailyQuota: 2_000 }, enterprise: { v2PerSecond: 5_000, dailyQuota: 10_000_000 } },
        developmentKeys: { rateFactor: 0.5 },
      }),
    );
    const catalog = loadPlanCatalog(file);
    expect(catalog.plans.free).toEqual({ ...DEFAULT_PLAN_CATALOG.plans.free, dailyQuota: 2_000 });
    expect(catalog.plans.enterprise.v2PerSecond).toBe(5_000);
    expect(catalog.plans.enterprise.dailyQuota).toBe(10_000_000);
    expect(catalog.plans.enterprise.v1MaxFileBytes).toBe(100 * MB);
    expect(catalog.plans.basic).toEqual(DEFAULT_PLAN_CATALOG.plans.basic);
    expect(catalog.developmentKeys).toEqual({ ...DEFAULT_PLAN_CATALOG.developmentKeys, rateFactor: 0.5 });
  });

  it('accepts null to lift a limit', () => {
    expect(parsePlanCatalog({ plans: { pro: { dailyQuota: null } } }).plans.pro.dailyQuota).toBeNull();
  });

  it('does not let one parse change the defaults', () => {
    parsePlanCatalog({ plans: { free: { dailyQuota: 7 } } });
    expect(DEFAULT_PLAN_CATALOG.plans.free.dailyQuota).toBe(1_000);
  });

  const rejected: Array<[string, unknown, string]> = [
    ['negative quota', { plans: { free: { dailyQuota: -1 } } }, 'plans.free.dailyQuota'],
    ['fractional rate', { plans: { basic: { v2PerSecond: 1.5 } } }, 'plans.basic.v2PerSecond'],
    ['rate as string', { plans: { pro: { v1PerMinute: '300' } } }, 'plans.pro.v1PerMinute'],
    ['null file size', { plans: { pro: { v2MaxFileBytes: null } } }, 'plans.pro.v2MaxFileBytes'],
    ['misspelt field', { plans: { free: { dailyQuotaa: 5 } } }, 'plans.free.dailyQuotaa: unknown field'],
    ['unknown plan', { plans: { gold: {} } }, 'plans.gold'],
    ['unknown tier', { plans: { free: { v1Tier: 'Gold' } } }, 'plans.free.v1Tier'],
    ['rate factor above 1', { developmentKeys: { rateFactor: 2 } }, 'developmentKeys.rateFactor'],
    ['zero /v2/file cap', { v2FileEndpointMaxBytes: 0 }, 'v2FileEndpointMaxBytes'],
    ['unknown top-level key', { plan: {} }, 'plan: unknown field'],
    ['not an object', [], '(root)'],
  ];
  for (const [name, input, field] of rejected) {
    it(`rejects ${name}, naming ${field}`, () => {
      expect(() => parsePlanCatalog(input, 'PLANS_FILE x.json')).toThrow(`Invalid PLANS_FILE x.json: ${field}`);
    });
  }

  it('names the file and the field when loading', () => {
    const file = writeTemp(JSON.stringify({ plans: { free: { wsConnections: 0 } } }));
    expect(() => loadPlanCatalog(file)).toThrow(new RegExp(`PLANS_FILE ${file}: plans\\.free\\.wsConnections`));
  });

  it('reports invalid JSON and a missing file', () => {
    expect(() => loadPlanCatalog(writeTemp('{ "plans": '))).toThrow(/not valid JSON/);
    expect(() => loadPlanCatalog('/nonexistent/plans.json')).toThrow('PLANS_FILE /nonexistent/plans.json: cannot be read (ENOENT)');
  });
});
