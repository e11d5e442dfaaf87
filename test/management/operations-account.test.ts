/** Account overview, the account IP allow-list, usage by day/generation/credential, CSV and the sandbox page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountOverviewOp, setAccountIpAllowListOp } from '../../api/management/operations/account.js';
import { sandboxOp } from '../../api/management/operations/sandbox.js';
import { dayRange, usageCsvOp, usageOp } from '../../api/management/operations/usage.js';
import { AccountOverviewResponse } from '../../api/management/schemas/account.js';
import { SandboxResponse } from '../../api/management/schemas/sandbox.js';
import { UsageResponse } from '../../api/management/schemas/usage.js';
import { createApiKey } from '../../shared/keys/api-keys.js';
import { check, createFixture, type Fixture, refusal } from './fixture.js';

describe('account operations', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await createFixture();
  });
  afterAll(() => f?.close());

  it("shows the plan, today's requests against the quota, the limits and the status", async () => {
    const viewer = await f.member('viewer', 'basic');
    for (let i = 0; i < 3; i++)
      await f.limiter.consume({ accountId: viewer.account.id, plan: 'basic', keyType: 'production', generation: 'v2', sandbox: false });
    const overview = check(AccountOverviewResponse, await accountOverviewOp(f.ctx, viewer));
    expect(overview).toMatchObject({
      role: 'viewer',
      account: { id: viewer.account.id, plan: 'basic', allowedIps: [] },
      today: { used: 3, quota: 10_000, remaining: 9_997 },
      limits: { v1PerSecond: 20, v1PerMinute: 60, v2PerSecond: 50, wsConnections: 5 },
      // A fifth of each rate (docs/limits.md), as the limiter enforces it.
      developmentLimits: { v1PerSecond: 4, v1PerMinute: 12, v2PerSecond: 10 },
      features: { ipAllowList: false, oauth: false, jwt: false },
      status: 'operational',
    });
    const ent = await f.member('owner', 'enterprise');
    const enterprise = await accountOverviewOp(f.ctx, ent);
    expect(enterprise.today).toMatchObject({ quota: null, remaining: null });
    // Unlimited for production keys; a development key gets the fixed ceilings there (50/s), a fifth elsewhere.
    expect(enterprise.limits).toMatchObject({ v1PerSecond: null, v1PerMinute: 1_000, v2PerSecond: null });
    expect(enterprise.developmentLimits).toEqual({ v1PerSecond: 50, v1PerMinute: 200, v2PerSecond: 50 });
  });

  it('sets the account IP allow-list on Pro (admins only), refuses it on Basic, lets anyone clear it', async () => {
    const admin = await f.member('admin', 'pro');
    expect(await setAccountIpAllowListOp(f.ctx, admin, { allowedIps: ['203.0.113.0/24', '::ffff:198.51.100.1'] })).toEqual({
      allowedIps: ['203.0.113.0/24', '198.51.100.1'],
    });
    expect((await f.store.getAccount(admin.account.id))?.allowedIps).toEqual(['203.0.113.0/24', '198.51.100.1']);
    const dev = await f.member('developer', 'pro', admin.account.id);
    expect(await refusal(setAccountIpAllowListOp(f.ctx, dev, { allowedIps: [] }))).toMatchObject({ code: 'FORBIDDEN' });
    const basic = await f.member('owner', 'basic');
    expect(await refusal(setAccountIpAllowListOp(f.ctx, basic, { allowedIps: ['192.0.2.1'] }))).toMatchObject({
      code: 'FORBIDDEN',
      details: 'plan: basic',
    });
    expect(await setAccountIpAllowListOp(f.ctx, basic, { allowedIps: [] })).toEqual({ allowedIps: [] });
  });

  it('reports 30 days by generation and by credential; today includes requests not yet flushed', async () => {
    const owner = await f.member('owner', 'pro');
    const id = owner.account.id;
    const { record } = await createApiKey(f.store, { accountId: id, type: 'production', description: 'Build box' });
    const days = dayRange(f.clock.now, 30);
    const [yesterday, today] = [days[28]!, days[29]!];
    await f.store.addUsage(id, yesterday, 'production', 12);
    await f.store.keyUsage.add({ accountId: id, day: yesterday, scope: 'production', credential: record.id, generation: 'v2', count: 7 });
    await f.store.keyUsage.add({ accountId: id, day: yesterday, scope: 'production', credential: record.id, generation: 'v1b', count: 2 });
    await f.store.keyUsage.add({ accountId: id, day: yesterday, scope: 'production', credential: 'jwt:k1', generation: 'ws', count: 3 });
    await f.store.addUsage(id, '2000-01-01', 'production', 99); // outside the range
    for (let i = 0; i < 4; i++)
      await f.limiter.consume({ accountId: id, plan: 'pro', keyType: 'production', generation: 'v2', sandbox: false });

    const usage = check(UsageResponse, await usageOp(f.ctx, owner, { days: 30 }));
    expect(usage.days).toHaveLength(30);
    expect([usage.from, usage.to]).toEqual([days[0], today]);
    expect(usage.days[28]).toEqual({ day: yesterday, total: 12, byGeneration: { v1: 2, v2: 7, websocket: 3 } });
    expect(usage.days[29]?.total).toBe(4);
    // The 4 live requests are not flushed: pending, not unattributed for good.
    expect(usage.pending).toBe(4);
    await f.store.addUsage(id, today, 'production', 4);
    expect((await usageOp(f.ctx, owner, { days: 30 })).pending).toBe(0);
    expect(usage.days.slice(0, 28).every((d) => d.total === 0)).toBe(true);
    expect(usage.credentials.map((c) => [c.credential, c.kind, c.label, c.total, c.perDay[28]])).toEqual([
      [record.id, 'api_key', `Build box (${record.prefix}…)`, 9, 9],
      ['jwt:k1', 'jwt', 'JWT key k1', 3, 3],
    ]);
    expect((await usageOp(f.ctx, owner, { days: 7 })).days).toHaveLength(7);
  });

  it('exports CSV with one row per day and neutralises formula-looking labels', async () => {
    const owner = await f.member('owner', 'pro');
    const id = owner.account.id;
    const { record } = await createApiKey(f.store, { accountId: id, type: 'production', description: '=HYPERLINK("x","y")' });
    const day = dayRange(f.clock.now, 1)[0]!;
    await f.store.addUsage(id, day, 'production', 5);
    await f.store.keyUsage.add({ accountId: id, day, scope: 'production', credential: record.id, generation: 'v2', count: 5 });
    const csv = await usageCsvOp(f.ctx, owner, { days: 2 });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`day,total,v1,v2,websocket,"'=HYPERLINK(""x"",""y"") (${record.prefix}…)"`);
    expect(lines[2]).toBe(`${day},5,0,5,0,5`);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('shows the sandbox with its own usage, apart from production', async () => {
    const dev = await f.member('developer', 'free');
    await f.limiter.consume({ accountId: dev.account.id, plan: 'free', keyType: 'development', generation: 'v1b', sandbox: true });
    const page = check(SandboxResponse, await sandboxOp(f.ctx, dev));
    expect(page).toMatchObject({ url: 'http://127.0.0.1:8081', today: { used: 1, quota: 1000 } });
    expect(page.days).toHaveLength(30);
    expect(page.days[29]?.count).toBe(1);
    expect(page.example).toContain('http://127.0.0.1:8081/v1/hash/text');
    expect((await accountOverviewOp(f.ctx, dev)).today.used).toBe(0);
  });
});
