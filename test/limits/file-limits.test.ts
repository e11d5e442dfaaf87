import { describe, expect, it } from 'vitest';
import { maxFileBytes } from '../../shared/limits/file-limits.js';
import { DEFAULT_PLAN_CATALOG, parsePlanCatalog } from '../../shared/limits/plans.js';

const MB = 1024 * 1024;

describe('maxFileBytes', () => {
  const cases: Array<[Parameters<typeof maxFileBytes>[1], 'v1' | 'v2', 'file' | 'stream' | 'url', number]> = [
    ['free', 'v1', 'file', 5 * MB],
    ['basic', 'v1', 'file', 25 * MB],
    ['pro', 'v1', 'file', 25 * MB],
    ['enterprise', 'v1', 'file', 100 * MB],
    ['basic', 'v1', 'url', 25 * MB],
    ['free', 'v2', 'file', 10 * MB],
    ['basic', 'v2', 'file', 50 * MB],
    ['pro', 'v2', 'file', 100 * MB],
    // /v2/file stops at 100 MB whatever the plan; enterprise sends larger files to /v2/stream.
    ['enterprise', 'v2', 'file', 100 * MB],
    ['enterprise', 'v2', 'stream', 1024 * MB],
    ['enterprise', 'v2', 'url', 1024 * MB],
    ['free', 'v2', 'stream', 10 * MB],
  ];
  for (const [plan, generation, endpoint, expected] of cases) {
    it(`${plan} ${generation} ${endpoint}: ${expected} bytes`, () => {
      expect(maxFileBytes(DEFAULT_PLAN_CATALOG, plan, generation, endpoint)).toBe(expected);
    });
  }

  it('defaults the endpoint to file', () => {
    expect(maxFileBytes(DEFAULT_PLAN_CATALOG, 'enterprise', 'v2')).toBe(100 * MB);
  });

  it('follows operator overrides, including the /v2/file cap', () => {
    const catalog = parsePlanCatalog({ plans: { free: { v1MaxFileBytes: 1234 } }, v2FileEndpointMaxBytes: 500 * MB });
    expect(maxFileBytes(catalog, 'free', 'v1')).toBe(1234);
    expect(maxFileBytes(catalog, 'enterprise', 'v2', 'file')).toBe(500 * MB);
  });
});
