/**
 * Reading usage is never refused by the quota it reports (docs/limits.md "Headers and errors"):
 * once an account's daily quota is spent, /v1/usage and /v1/status still answer 200 with the day's
 * figures and consume nothing; their own rate window still applies. Embedded (in process, SQLite)
 * and distributed (an API node on Redis and PostgreSQL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/api-server.js';
import { startCluster } from '../helpers/cluster.js';
import { stallFor } from '../helpers/wait.js';

interface Server {
  url: string;
  newKey(plan: 'free' | 'basic'): Promise<string>;
  close(): Promise<void>;
}

/** Free: a quota of 3 and no rate to get in the way; basic: a quota of 1 and 2 Set B requests a minute. */
function writePlans(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sha224d-plans-')), 'plans.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      plans: {
        free: { v1PerSecond: null, v1PerMinute: null, v2PerSecond: null, dailyQuota: 3 },
        basic: { v1PerSecond: null, v1PerMinute: 2, v2PerSecond: null, dailyQuota: 1 },
      },
    }),
  );
  return file;
}

const MODES: Array<[string, (env: Record<string, string>) => Promise<Server>]> = [
  [
    'embedded',
    async (env) => {
      const s = await startTestServer({ env });
      return { url: s.url, newKey: async (plan) => (await s.newKey({ plan })).secret, close: () => s.close() };
    },
  ],
  [
    'distributed',
    async (env) => {
      const c = await startCluster({ apiNodes: 1, workers: 0, env });
      return { url: c.url(0), newKey: (plan) => c.newKey({ plan }), close: () => c.close() };
    },
  ],
];

describe.each(MODES)('reading usage after the daily quota is spent (%s)', (_mode, start) => {
  let s: Server;
  beforeAll(async () => {
    s = await start({ PLANS_FILE: writePlans() });
  }, 60_000);
  afterAll(() => s.close());

  const hash = (key: string) =>
    fetch(`${s.url}/v2/hash`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"data":"abc"}',
    });
  const read = (key: string, what: 'usage' | 'status') => fetch(`${s.url}/v1/${what}`, { headers: { authorization: `Bearer ${key}` } });

  it('/v1/usage and /v1/status answer 200 with the spent quota, and consume none of it', async () => {
    const key = await s.newKey('free');
    expect((await Promise.all([hash(key), hash(key), hash(key)])).map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await hash(key);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.details).toBe('daily quota of 3 requests exceeded; it resets at 00:00 UTC');

    for (let i = 0; i < 4; i++) {
      const usage = await read(key, 'usage');
      expect(usage.status).toBe(200);
      const body = await usage.json();
      expect(body.account.quota).toMatchObject({ daily: 3, used: 3, remaining: 0 });
      const status = await read(key, 'status');
      expect(status.status).toBe(200);
      expect((await status.json()).account).toEqual({ plan: 'free', requests_today: 3, requests_quota: 3 });
    }
    // No rate window binds these reads on this plan, so no X-RateLimit figure describes the spent day.
    const headers = (await read(key, 'usage')).headers;
    expect([headers.get('x-ratelimit-limit'), headers.get('x-ratelimit-remaining')]).toEqual(['-1', '-1']);
    expect(headers.get('retry-after')).toBeNull();
    expect((await hash(key)).status).toBe(429);
  });

  it('reading usage before the quota is spent leaves all of it to the other requests', async () => {
    const key = await s.newKey('free');
    for (let i = 0; i < 5; i++) expect((await read(key, 'usage')).status).toBe(200);
    expect((await Promise.all([hash(key), hash(key), hash(key)])).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await hash(key)).status).toBe(429);
  });

  it("/v1/status still counts in Set B's rate window", async () => {
    const key = await s.newKey('basic');
    expect((await hash(key)).status).toBe(200);
    expect((await hash(key)).status).toBe(429);
    // Pacing: three reads inside one clock-aligned minute window.
    if (Date.now() % 60_000 > 55_000) await stallFor(60_000 - (Date.now() % 60_000) + 50);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await read(key, 'status'));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect((await statuses[2]!.json()).error.details).toMatchObject({ info: 'rate limit of 2 requests per minute exceeded' });
    expect(statuses[2]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(statuses[1]!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(statuses[1]!.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
